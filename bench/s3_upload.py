"""bench/s3-upload.sh's other side: uploads FILES to s3://BUCKET/PREFIX/ with boto3's managed transfer (upload_file:
multipart above 8 MiB, 10 threads per file, its defaults), one file after another as a user's loop would, and prints
the seconds the uploads took. The endpoint and keys come from the environment (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY); S3Proxy needs AWS_REQUEST_CHECKSUM_CALCULATION=when_required (the script sets it).

    python3 bench/s3_upload.py BUCKET PREFIX FILE...
"""
import os
import sys
import time

os.environ.setdefault("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required")
os.environ.setdefault("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required")

import boto3  # noqa: E402  (after the checksum setting, which the client reads when it is made)
from boto3.s3.transfer import TransferConfig  # noqa: E402


def main(bucket, prefix, files):
    client = boto3.client("s3", region_name="us-east-1")
    config = TransferConfig()
    start = time.perf_counter()
    total = 0
    for path in files:
        client.upload_file(path, bucket, f"{prefix}/{os.path.basename(path)}", Config=config)
        total += os.path.getsize(path)
    seconds = time.perf_counter() - start
    print(f"{seconds:.2f}\t{total}")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
