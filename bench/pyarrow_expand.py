#!/usr/bin/env python3
"""What a user would write without tensor-broadcast (bench/feature-table.sh times it): every file of a feature table
read batch by batch, its `features` rows of [1,64] broadcast to [8,64] with numpy, written with the other columns as
an arrow.fixed_shape_tensor column to one Parquet file per input file, then fsync.

    python3 bench/pyarrow_expand.py TABLE_DIR OUT_DIR [none|snappy|zstd|lz4]
"""
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

source, output = sys.argv[1], sys.argv[2]
codec = sys.argv[3] if len(sys.argv) > 3 else 'none'
os.makedirs(output)
tensor_type = pa.fixed_shape_tensor(pa.float32(), [8, 64])
for name in sorted(os.listdir(source)):
    if not name.endswith('.parquet'):
        continue
    path = os.path.join(output, name)
    writer = None
    for batch in pq.ParquetFile(os.path.join(source, name)).iter_batches(batch_size=64 * 1024):
        features = batch.column('features').flatten().to_numpy().reshape(-1, 1, 64)
        expanded = np.ascontiguousarray(np.broadcast_to(features, (features.shape[0], 8, 64)))
        storage = pa.FixedSizeListArray.from_arrays(pa.array(expanded.reshape(-1)), 8 * 64)
        tensor = pa.ExtensionArray.from_storage(tensor_type, storage)
        table = pa.table({'user_id': batch.column('user_id'), 'label': batch.column('label'), 'tensor': tensor})
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema, compression=codec)
        writer.write_table(table)
    writer.close()
    with open(path, 'rb') as f:
        os.fsync(f.fileno())
