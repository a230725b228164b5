/**
 * The container backend: a Spark standalone master and workers, each in its own container with its own address on a
 * Docker network the cluster creates, driven by Testcontainers. The image is built offline by
 * {@code local-cluster/src/main/docker/build-image.sh}; nothing is ever pulled from a registry.
 */
package dev.tensorbroadcast.localcluster.container;
