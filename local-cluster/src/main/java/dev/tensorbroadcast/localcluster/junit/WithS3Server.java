package dev.tensorbroadcast.localcluster.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class one running {@link dev.tensorbroadcast.localcluster.s3.S3Server}, started before its first test
 * and stopped after its last; a test or lifecycle method receives it as a parameter. Its jar is the one in the Spark
 * home the system property {@value dev.tensorbroadcast.localcluster.SparkHome#PROPERTY} names.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(S3ServerExtension.class)
public @interface WithS3Server {}
