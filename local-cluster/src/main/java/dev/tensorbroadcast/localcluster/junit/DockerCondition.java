package dev.tensorbroadcast.localcluster.junit;

import dev.tensorbroadcast.localcluster.container.ContainerCluster;
import java.io.PrintStream;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@link RequiresDocker}'s condition. JUnit writes a skipped class's reason only into the test reports, so a build
 * without Docker would pass with its container tests silently not run: the skip is said on stdout too, which Maven
 * prints with the build's output.
 */
public final class DockerCondition implements ExecutionCondition {
    static final String REASON = "no Docker engine answers (DOCKER_HOST, /var/run/docker.sock)";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isPresent()) {
            // decided once, for the class; its methods run when it runs
            return ConditionEvaluationResult.enabled("the class runs");
        }
        String name = context.getTestClass().map(Class::getSimpleName).orElse(context.getDisplayName());
        return decide(name, ContainerCluster.dockerAvailable(), System.out);
    }

    /** Whether {@code testClass} runs, saying on {@code console} why not when it does not. */
    static ConditionEvaluationResult decide(String testClass, boolean dockerAvailable, PrintStream console) {
        if (dockerAvailable) {
            return ConditionEvaluationResult.enabled("a Docker engine answers");
        }
        console.println("[skipped] " + testClass + ": " + REASON);
        console.flush();
        return ConditionEvaluationResult.disabled(REASON);
    }
}
