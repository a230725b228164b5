package dev.tensorbroadcast.localcluster.container;

import com.github.dockerjava.api.exception.NotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;

/** The Spark image a cluster runs: by default the one the build script made for this module's Spark version. */
final class SparkImage {
    static final String BUILD_SCRIPT = "local-cluster/src/main/docker/build-image.sh";

    private SparkImage() {}

    static String defaultImage() {
        try (InputStream in = SparkImage.class.getResourceAsStream("image.properties")) {
            if (in == null) {
                throw new IllegalStateException("Cannot find the default Spark image: image.properties is missing");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("image");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails with how to build the image when the engine does not have it: clusters never pull. */
    static DockerImageName requireLocal(String image) {
        DockerImageName name = DockerImageName.parse(image);
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
        } catch (NotFoundException e) {
            throw new IllegalStateException("Cannot start a container cluster: image " + image + " is not in the"
                    + " Docker engine, and clusters never pull; build it with " + BUILD_SCRIPT
                    + " (after mvn -pl local-cluster package)");
        }
        return name;
    }
}
