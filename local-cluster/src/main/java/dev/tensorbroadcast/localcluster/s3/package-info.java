/**
 * A real S3 API server on 127.0.0.1 for tests and trials ({@link dev.tensorbroadcast.localcluster.s3.S3Server}):
 * S3Proxy with its filesystem backend, in a process of its own.
 */
package dev.tensorbroadcast.localcluster.s3;
