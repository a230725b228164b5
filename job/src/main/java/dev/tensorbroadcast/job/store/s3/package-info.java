/**
 * The S3 store ({@code s3a://}): S3A's magic committer with the tasks' pending uploads carried in their commit
 * messages, the commit's clean-up of an overwrite in place, our S3A settings and what S3's refusals mean.
 */
package dev.tensorbroadcast.job.store.s3;
