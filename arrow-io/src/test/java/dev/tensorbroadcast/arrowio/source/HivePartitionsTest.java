package dev.tensorbroadcast.arrowio.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.HiveLayout;
import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hive-partitioned directories as pyarrow, polars and DuckDB write them with their defaults (fixtures/hive, made by
 * its make_fixtures.py): every file under the key=value levels, in path order, the keys kept as typed columns.
 */
class HivePartitionsTest {
    private static final Configuration CONF = new Configuration();
    private static final int ROWS = 24;

    @TempDir
    Path dir;

    private static Path fixture(String name) throws Exception {
        return Path.of(HivePartitionsTest.class
                        .getResource("/fixtures/hive/make_fixtures.py")
                        .toURI())
                .getParent()
                .resolve(name);
    }

    private static TensorDataset open(Path directory) throws Exception {
        return TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults().withColumn("features").withRowShape(Shape.of(8)));
    }

    /** Each row's features, read in slices, as make_fixtures.py gave its user_id; returns the user ids in order. */
    private static List<Long> checkRows(TensorDataset dataset) {
        KeptColumn userId = dataset.others().get(0).kept();
        assertThat(userId.name()).isEqualTo("user_id");
        List<Long> ids = new ArrayList<>();
        try (KeptRows kept = KeptReader.read(dataset, new SourceRows(0, ROWS), List.of(userId), CONF)) {
            ByteBuffer values = ByteBuffer.wrap(DatasetSlices.read(dataset, new SourceRows(0, ROWS), CONF)
                            .tensor()
                            .values())
                    .order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < ROWS; i++) {
                long u = (Long) kept.vector(0).getObject(i);
                ids.add(u);
                for (int e = 0; e < 8; e++) {
                    assertThat(values.getFloat((i * 8 + e) * 4)).isEqualTo((float) (u + e / 8.0));
                }
            }
        }
        assertThat(ids)
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.LongStream.range(0, ROWS).boxed().toList());
        return ids;
    }

    private static FieldVector column(KeptRows kept, String name) {
        return kept.vector(
                kept.columns().stream().map(KeptColumn::name).toList().indexOf(name));
    }

    private static int day(long u) {
        return (int) LocalDate.of(2024, 1, 1 + (int) (u % 3)).toEpochDay();
    }

    @Test
    void pyarrowsKeysAreDatesAndStringsWithNullsInPathOrder() throws Exception {
        TensorDataset dataset = open(fixture("pyarrow"));

        assertThat(dataset.partitionKeys()).containsExactly("day", "region");
        assertThat(dataset.others()).extracting(OtherColumn::name).containsExactly("user_id", "day", "region");
        assertThat(dataset.others()).extracting(OtherColumn::type).containsExactly("int64", "date32", "string");
        assertThat(dataset.parts()).hasSize(9);
        assertThat(dataset.parts().get(0).path()).contains("/day=2024-01-01/region=__HIVE_DEFAULT_PARTITION__/");
        assertThat(dataset.parts().get(1).path()).contains("/day=2024-01-01/region=eu/");
        List<Long> ids = checkRows(dataset);
        List<KeptColumn> kept = dataset.others().stream().map(OtherColumn::kept).toList();
        try (KeptRows rows = KeptReader.read(dataset, new SourceRows(0, ROWS), kept, CONF)) {
            for (int i = 0; i < ROWS; i++) {
                long u = ids.get(i);
                assertThat(column(rows, "day").getObject(i)).as("row %s", i).isEqualTo(day(u));
                String region = new String[] {"eu", "eu", "us", null}[(int) (u % 4)];
                assertThat(
                                column(rows, "region").getObject(i) == null
                                        ? null
                                        : column(rows, "region").getObject(i).toString())
                        .isEqualTo(region);
            }
        }
        // path order: the null region (__HIVE_DEFAULT_PARTITION__) first, then eu, us, within each day
        assertThat(ids.subList(0, 2)).containsExactlyInAnyOrder(3L, 15L);
    }

    @Test
    void duckdbsIntegerKeyIsTypedAndItsLevelsNested() throws Exception {
        TensorDataset dataset = open(fixture("duckdb"));

        assertThat(dataset.partitionKeys()).containsExactly("bucket", "day");
        assertThat(dataset.others()).extracting(OtherColumn::type).containsExactly("int64", "int32", "date32");
        List<Long> ids = checkRows(dataset);
        List<KeptColumn> kept = dataset.others().stream().map(OtherColumn::kept).toList();
        try (KeptRows rows = KeptReader.read(dataset, new SourceRows(5, 20), kept, CONF)) {
            for (int i = 0; i < 15; i++) {
                long u = ids.get(5 + i);
                assertThat(column(rows, "bucket").getObject(i)).isEqualTo((int) (u % 2));
                assertThat(column(rows, "day").getObject(i)).isEqualTo(day(u));
            }
        }
        // bucket=0 before bucket=1
        assertThat(ids.subList(0, 12)).allMatch(u -> u % 2 == 0);
    }

    @Test
    void polarsKeepsItsKeyInTheFilesTooWhichIsReadFromThem() throws Exception {
        TensorDataset dataset = open(fixture("polars"));

        assertThat(dataset.partitionKeys()).isEmpty();
        assertThat(dataset.others()).extracting(OtherColumn::name).containsExactly("user_id", "day");
        List<Long> ids = checkRows(dataset);
        assertThat(ids.subList(0, 8)).allMatch(u -> u % 3 == 0);
    }

    @Test
    void filesBesidePartitionsAreRefusedNamingOne() throws Exception {
        Path copy = dir.resolve("mixed");
        copyTree(fixture("polars"), copy);
        Files.writeString(copy.resolve("day=2024-01-02").resolve("notes"), "");
        Files.createDirectories(copy.resolve("day=2024-01-02").resolve("extra=1"));

        assertThatThrownBy(() -> open(copy))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageStartingWith("Cannot read " + copy + ": it is partitioned (key=value directories), but ")
                .hasMessageContaining("day=2024-01-02/0000000");
    }

    @Test
    void aFileItCannotReadIsNamed() throws Exception {
        Path copy = dir.resolve("unreadable");
        copyTree(fixture("polars"), copy);
        Path notes = copy.resolve("day=2024-01-03").resolve("notes.txt");
        Files.writeString(notes, "not a table");

        assertThatThrownBy(() -> open(copy))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read " + new org.apache.hadoop.fs.Path(notes.toUri()) + ": it is neither an Arrow"
                        + " IPC file or stream nor a Parquet file (a dataset directory holds only those)");
    }

    @Test
    void valuesAreUnescapedAndTypedAsSparkInfersThem() {
        assertThat(HiveLayout.unescape("a%2Fb%20c")).isEqualTo("a/b c");
        assertThat(HiveLayout.kind(List.of("1", "-20", "3"))).isEqualTo(KeptColumn.Kind.INT32);
        assertThat(HiveLayout.kind(java.util.Arrays.asList("1", null, "30000000000")))
                .isEqualTo(KeptColumn.Kind.INT64);
        assertThat(HiveLayout.kind(List.of("2024-01-31", "2023-12-01"))).isEqualTo(KeptColumn.Kind.DATE32);
        assertThat(HiveLayout.kind(List.of("2024-02-30"))).isEqualTo(KeptColumn.Kind.STRING);
        assertThat(HiveLayout.kind(List.of("1", "x"))).isEqualTo(KeptColumn.Kind.STRING);
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (var paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }
}
