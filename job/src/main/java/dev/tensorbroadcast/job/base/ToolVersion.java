package dev.tensorbroadcast.job.base;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** This tool's version: from the jar manifest, or from the build's filtered resource when running from classes. */
public final class ToolVersion {
    private ToolVersion() {}

    public static String version() {
        String manifest = ToolVersion.class.getPackage().getImplementationVersion();
        if (manifest != null) {
            return manifest;
        }
        try (InputStream in =
                ToolVersion.class.getResourceAsStream("/dev/tensorbroadcast/job/cli/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
