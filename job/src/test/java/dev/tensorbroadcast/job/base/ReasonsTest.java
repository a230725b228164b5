package dev.tensorbroadcast.job.base;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ReasonsTest {
    @Test
    void givesTheFirstLineOrTheType() {
        assertThat(Reasons.of(new IOException("disk full\n\tat somewhere"))).isEqualTo("disk full");
        assertThat(Reasons.of(new IOException())).isEqualTo("IOException");
        assertThat(Reasons.of(new IllegalStateException(" "))).isEqualTo("IllegalStateException");
    }

    /** A refusal quoted as another's reason still reads in the words of whoever reads the outer one. */
    @Test
    void keepsARefusalsParameterMentionsForTheMessageThatQuotesIt() {
        InvalidRequestException inner =
                new InvalidRequestException("Cannot use " + Param.MAX_OUTPUT.given("1024L", "1k") + ": too small");
        InvalidRequestException outer = new InvalidRequestException("Cannot reduce: " + Reasons.of(inner));

        assertThat(outer.getMessage()).isEqualTo("Cannot reduce: Cannot use maxOutputBytes(1024L): too small");
        assertThat(outer.commandLineMessage()).isEqualTo("Cannot reduce: Cannot use --max-output 1k: too small");
    }

    /**
     * S3A's message for a refused write of the lock, as hadoop-aws 3.5.0 words it (seen against S3Proxy for 501):
     * the key without its s3a:// URI, then the SDK's paragraph. Both answers read as a few words.
     */
    @Test
    void namesARefusedS3WriteWithoutTheSdksParagraph() {
        String sdk = "Writing Object on out/_tensor-broadcast.lock: software.amazon.awssdk.services.s3.model"
                + ".S3Exception: (Service: S3, Status Code: %d, Request ID: 4442587FB7D0A2F9) (SDK Attempt Count: 1)";

        assertThat(Reasons.of(new IOException(new IOException(sdk.formatted(403)))))
                .startsWith(
                        "the S3 server refused access (403 Forbidden): wrong keys, or keys without access to this bucket");
        assertThat(Reasons.of(new IOException(sdk.formatted(501))))
                .startsWith("the S3 server answered 501 NotImplemented: it serves this bucket read-only");
    }
}
