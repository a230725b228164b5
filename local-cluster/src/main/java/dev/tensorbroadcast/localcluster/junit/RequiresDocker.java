package dev.tensorbroadcast.localcluster.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class only where a Docker engine answers; elsewhere it is skipped, and says so on the build's console
 * (one line naming the class and the reason), not only in the test reports.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(DockerCondition.class)
public @interface RequiresDocker {}
