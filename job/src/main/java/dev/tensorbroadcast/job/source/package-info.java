/**
 * The <b>source</b> part of the pipeline: what a request reads. {@link dev.tensorbroadcast.job.source.SourceLoader}
 * opens the inputs on the driver; a {@link dev.tensorbroadcast.job.source.JobSource} is what the driver holds (a tensor
 * shipped once, a dataset read in slices, a gradient to reduce) and gives each task its
 * {@link dev.tensorbroadcast.job.source.TaskSource}. The readers themselves are in {@code arrowio.source}.
 */
package dev.tensorbroadcast.job.source;
