package dev.tensorbroadcast.job.store.s3;

import dev.tensorbroadcast.job.base.StoreFailureReader;
import java.net.ConnectException;
import java.util.Optional;

/**
 * What an object store's answer means, in a few words a user can act on, in place of the S3 client's paragraph (a
 * service name, a request id, the SDK's attempt count, twice). Recognised by the exception types hadoop-aws turns
 * S3's answers into and by their names, so this class needs no S3 class loaded: it runs where hadoop-aws is not.
 */
public final class S3Failures implements StoreFailureReader {
    private static final String CREDENTIAL_SETTINGS = "give the bucket's keys with --conf"
            + " spark.hadoop.fs.s3a.access.key=... --conf spark.hadoop.fs.s3a.secret.key=..., or in AWS_ACCESS_KEY_ID"
            + " and AWS_SECRET_ACCESS_KEY";

    public S3Failures() {}

    /** The short reason for {@code error} or a cause of it, when it is an object store's refusal or silence. */
    @Override
    public Optional<String> reason(Throwable error) {
        boolean fromStore = fromStore(error);
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String type = cause.getClass().getName();
            String message = cause.getMessage() == null ? "" : cause.getMessage();
            if (type.equals("org.apache.hadoop.fs.s3a.UnknownStoreException") || message.contains("NoSuchBucket")) {
                return Optional.of("its bucket does not exist (the S3 server answered NoSuchBucket)");
            }
            if (type.equals("org.apache.hadoop.fs.s3a.auth.NoAuthWithAWSException")) {
                return Optional.of("no S3 credentials were found; " + CREDENTIAL_SETTINGS);
            }
            // a refused write names the object's key, not its s3a:// URI: AWS S3's answer to keys that may only read
            if ((message.contains("s3a://") && cause instanceof java.nio.file.AccessDeniedException)
                    || message.contains("Status Code: 403")) {
                return Optional.of("the S3 server refused access (403 Forbidden): wrong keys, or keys without"
                        + " access to this bucket; " + CREDENTIAL_SETTINGS);
            }
            // S3Proxy serving a bucket read-only answers every write so (AWS S3 answers a read-only policy with 403)
            if (message.contains("Status Code: 501")) {
                return Optional.of(
                        "the S3 server answered 501 NotImplemented: it serves this bucket read-only (S3Proxy's"
                                + " answer to every write then), or does not implement a request S3A sent (S3Proxy's to bulk"
                                + " deletes unless spark.hadoop.fs.s3a.multiobjectdelete.enable=false); write to a bucket these"
                                + " keys may write to");
            }
            // a refused connection is the store's only when the store's client met it: a Spark master's is not
            if (fromStore && (cause instanceof ConnectException || message.contains("Connection refused"))) {
                return Optional.of("the S3 endpoint does not answer (connection refused); check"
                        + " spark.hadoop.fs.s3a.endpoint and that the server runs");
            }
        }
        return Optional.empty();
    }

    private static boolean fromStore(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String type = cause.getClass().getName();
            if (type.startsWith("org.apache.hadoop.fs.s3a.")
                    || type.startsWith("software.amazon.awssdk.")
                    || (cause.getMessage() != null && cause.getMessage().contains("s3a://"))) {
                return true;
            }
        }
        return false;
    }
}
