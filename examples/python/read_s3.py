"""The README's recipe: a tensor-broadcast dataset on S3 read back as one numpy array with pyarrow's S3FileSystem.

    python3 examples/python/read_s3.py ENDPOINT ACCESS_KEY SECRET_KEY_FILE BUCKET/PREFIX

ENDPOINT is http://host:port (an S3 server such as the one 'tensor-broadcast cluster start --s3' runs). Prints the
array's shape and checks the dataset is complete (its _SUCCESS is there) before reading.
"""
import json
import os
import sys

# S3Proxy answers the checksums recent AWS SDKs send by default with 501 NotImplemented; AWS S3 does not need this
os.environ.setdefault("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required")
os.environ.setdefault("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required")

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

endpoint, access_key, secret_file, dataset = sys.argv[1:5]
s3 = pafs.S3FileSystem(endpoint_override=endpoint, scheme=endpoint.split("://")[0], access_key=access_key,
                       secret_key=open(secret_file).read().strip(), region="us-east-1")
if s3.get_file_info(f"{dataset}/_SUCCESS").type != pafs.FileType.File:
    sys.exit(f"{dataset} is not complete (no _SUCCESS)")
with s3.open_input_stream(f"{dataset}/_manifest.json") as f:
    manifest = json.loads(f.read())
tables = []
for entry in sorted(manifest["files"], key=lambda e: e["partition"]):
    path = f"{dataset}/{entry['path']}"
    if path.endswith(".parquet"):
        tables.append(pq.read_table(path, filesystem=s3))
    else:
        with s3.open_input_file(path) as f:
            tables.append(ipc.open_file(f).read_all())
array = pa.concat_tables(tables).column("tensor").combine_chunks().to_numpy_ndarray()
print(array.shape, array.dtype)
