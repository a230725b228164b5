/**
 * The <b>storage</b> seam: where an output or an input lives, and everything the pipeline does differently for it.
 * {@link dev.tensorbroadcast.job.store.Locations} turns a location as typed into a file system and a qualified path;
 * {@link dev.tensorbroadcast.job.store.Stores} picks the {@link dev.tensorbroadcast.job.store.Store} of a path once,
 * by its scheme: {@link dev.tensorbroadcast.job.store.LocalDiskStore} ({@code file:}),
 * {@link dev.tensorbroadcast.job.store.HadoopStore} (HDFS, any Hadoop file system with an atomic rename) and
 * {@code s3.S3Store} ({@code s3a://}, rename-free, S3A's magic committer). No scheme is tested outside this package
 * ({@code StoreBranchesTest}).
 */
package dev.tensorbroadcast.job.store;
