package dev.tensorbroadcast.job.pipeline;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;
import org.junit.platform.suite.api.SuiteDisplayName;

/**
 * The integration tests tagged {@link SharedCluster#TAG}, run as one class: failsafe gives it one JVM, where they
 * share one process cluster, while its other forks run the other IT classes beside it. Failsafe does not run the
 * tagged classes on their own (the job module's pom lists them among its excludes; a filter by tag there would take
 * them out of this suite too), unless one is named with {@code -Dit.test}. A class that leaves the cluster broken
 * (WorkerKillIT) says {@code @Order(Integer.MAX_VALUE)}, to run last; the others keep the order they are found in.
 */
@Suite
@SuiteDisplayName("the IT classes that share one process cluster")
@SelectPackages("dev.tensorbroadcast.job")
@IncludeClassNamePatterns(".*IT")
@ExcludeClassNamePatterns(".*SuiteIT")
@IncludeTags(SharedCluster.TAG)
@ConfigurationParameter(
        key = "junit.jupiter.testclass.order.default",
        value = "org.junit.jupiter.api.ClassOrderer$OrderAnnotation")
class SharedClusterSuiteIT {}
