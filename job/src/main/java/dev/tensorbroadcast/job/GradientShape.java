package dev.tensorbroadcast.job;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.source.Gradient;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The shape a reduce reads a gradient dataset as. A dataset of ours keeps the shape it was written as in its
 * manifest, while its rows may be cut below the first dim ({@code expand --partitions 6} of {@code [3,40,64]} writes
 * 120 rows of {@code [64]}): the manifest's shape is the gradient's. Another writer's dataset, or one read with
 * {@code --row-shape}, is its rows times its row shape. Either is read as the forward output's shape where its rows
 * flatten to it.
 */
final class GradientShape {
    private GradientShape() {}

    static Gradient of(Gradient gradient, String location, Configuration conf) {
        if (!(gradient instanceof Gradient.Stored stored)) {
            return gradient;
        }
        return manifestShape(location, conf)
                .filter(shape -> !shape.equals(stored.shape())
                        && Gradient.Stored.datasetRowsPerRow(stored.dataset(), shape)
                                .isPresent())
                .<Gradient>map(shape -> new Gradient.Stored(stored.dataset(), shape))
                .orElse(gradient);
    }

    /**
     * {@code gradient} as the forward broadcast's {@code output} where each row of that shape is one or more whole
     * rows of its dataset ({@code [3840,64]} as 3840 rows of {@code [64]} as well as {@code [4,960,64]}): a dataset is
     * its rows, whatever shape its writer had in mind; anything else as it was, for the refusal to name.
     */
    static Gradient fitting(Gradient gradient, Shape output) {
        if (gradient instanceof Gradient.Stored stored
                && !stored.shape().equals(output)
                && (output.equals(stored.dataset().shape())
                        || Gradient.Stored.datasetRowsPerRow(stored.dataset(), output)
                                .isPresent())) {
            return new Gradient.Stored(stored.dataset(), output);
        }
        return gradient;
    }

    /** The shape in {@code location}'s manifest; empty where there is none or it cannot be read (no dataset of ours). */
    private static Optional<Shape> manifestShape(String location, Configuration conf) {
        Locations.Located dataset = Locations.locate("input", location, conf);
        Path file = new Path(dataset.path(), Manifest.FILE_NAME);
        try (InputStream in = dataset.fileSystem().open(file)) {
            Manifest manifest = ManifestJson.read(in, file.toString());
            return Optional.of(Shape.of(
                    manifest.shape().stream().mapToLong(Long::longValue).toArray()));
        } catch (IOException | RuntimeException e) {
            // no manifest (not ours), or a damaged one: the dataset's own rows decide, as for any other writer's
            return Optional.empty();
        }
    }
}
