#!/usr/bin/env python3
"""The Hugging Face side of bench/hf-dataset.sh (issue 27), each step its own process so each is timed whole:

    hf_dataset.py make DIR ROWS       a dataset of ROWS rows saved with save_to_disk: user_id int64, label int32,
                                      features Array2D((1, 64), float32) with row r's values r + e / 64
    hf_dataset.py map SRC OUT         the HF user's idiom: load_from_disk, ds.map(batched=True) with numpy's
                                      broadcast to [8, 64], save_to_disk (the map's cache file lands beside SRC)
    hf_dataset.py check OUT ROWS      reads tensor-broadcast's Parquet output back with datasets.load_dataset("parquet")
                                      and checks rows, the kept columns and a sample of the values
"""
import glob
import os
import sys

import datasets
import numpy as np
import pyarrow as pa

datasets.disable_progress_bars()
FEATURES = datasets.Features({
    'user_id': datasets.Value('int64'),
    'label': datasets.Value('int32'),
    'features': datasets.Array2D(shape=(1, 64), dtype='float32'),
})


def make(directory, rows):
    r = np.arange(rows)
    values = (r[:, None] + np.arange(64)[None, :] / 64).astype(np.float32)
    inner = pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1)), 64)
    outer = pa.FixedSizeListArray.from_arrays(inner, 1)
    table = pa.table({'user_id': pa.array(r, pa.int64()), 'label': pa.array((r % 3).astype(np.int32)),
                      'features': outer})
    ds = datasets.Dataset(table).cast(FEATURES)
    ds.save_to_disk(directory)


def broadcast(batch):
    features = np.asarray(batch['features'], dtype=np.float32)
    return {'features': np.broadcast_to(features, (features.shape[0], 8, 64))}


def hf_map(source, out):
    ds = datasets.load_from_disk(source)
    expanded = ds.map(broadcast, batched=True, features=datasets.Features({
        'user_id': datasets.Value('int64'), 'label': datasets.Value('int32'),
        'features': datasets.Array2D(shape=(8, 64), dtype='float32')}))
    expanded.save_to_disk(out)


def check(out, rows):
    ds = datasets.load_dataset('parquet', data_files=sorted(glob.glob(os.path.join(out, '*.parquet'))),
                               split='train')
    assert ds.num_rows == rows, (ds.num_rows, rows)
    ds = ds.with_format('numpy')
    for i in sorted({0, 1, rows // 2, rows - 1}):
        row = ds[i]
        index = int(row['index'])
        tensor = np.asarray(row['tensor'], dtype=np.float32).reshape(8, 64)
        expected = np.broadcast_to(index + np.arange(64, dtype=np.float32) / 64, (8, 64))
        assert int(row['user_id']) == index and int(row['label']) == index % 3, row
        assert np.array_equal(tensor, expected.astype(np.float32)), (i, tensor[0, :4], expected[0, :4])
    print(f'checked {rows} rows with datasets.load_dataset("parquet"): columns {ds.column_names}')


if __name__ == '__main__':
    step = sys.argv[1]
    if step == 'make':
        make(sys.argv[2], int(sys.argv[3]))
    elif step == 'map':
        hf_map(sys.argv[2], sys.argv[3])
    elif step == 'check':
        check(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f'hf_dataset.py: unknown step {step!r} (make, map, check)')
