package dev.tensorbroadcast.localcluster;

/**
 * The running local cluster cannot be found or its recorded state cannot be read or written: something the user
 * fixes (start a cluster, stop it, point {@code TENSOR_BROADCAST_STATE} elsewhere). The message says what to do.
 */
public final class ClusterStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ClusterStateException(String message) {
        super(message);
    }
}
