package dev.tensorbroadcast.job.base;

import java.util.Optional;

/**
 * What a store's failure means, in a few words a user can act on, for the stores whose client says it at length (S3's
 * paragraph of service name, request id and attempts). A store's package names its reader in
 * {@code META-INF/services/dev.tensorbroadcast.job.base.StoreFailureReader}; {@link Reasons} asks each.
 */
public interface StoreFailureReader {
    /** The short reason for {@code error} or a cause of it, when it is this store's refusal or silence. */
    Optional<String> reason(Throwable error);
}
