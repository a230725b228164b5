package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.base.ToolVersion;
import picocli.CommandLine.IVersionProvider;

/** The version option's answer. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"tensor-broadcast " + ToolVersion.version()};
    }
}
