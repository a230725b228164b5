/**
 * Real Spark standalone clusters on one machine, for tests and trials: a master and workers as separate JVM processes
 * on 127.0.0.1, or each in its own container. Knows nothing of tensors; the job module's tests and CLI use it.
 */
package dev.tensorbroadcast.localcluster;
