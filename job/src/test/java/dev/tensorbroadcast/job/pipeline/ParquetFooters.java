package dev.tensorbroadcast.job.pipeline;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;

/**
 * A Parquet file's bytes in a form two writes of the same data share whatever JVM wrote them: parquet-mr keeps each
 * column chunk's encodings in a {@code HashSet} of enums, ordered by identity hash codes, so their order in the
 * footer depends on the JVM (two executors of one job, say). The pages are kept byte for byte; the footer becomes
 * its content with each chunk's encodings sorted.
 */
public final class ParquetFooters {
    private ParquetFooters() {}

    /** The pages as written, then the footer with each column chunk's encodings in one order. */
    public static byte[] canonical(Path file, byte[] bytes) throws IOException {
        int footerLength = ByteBuffer.wrap(bytes, bytes.length - 8, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
        StringBuilder footer = new StringBuilder().append(footerLength);
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            ParquetMetadata metadata = reader.getFooter();
            footer.append(metadata.getFileMetaData().getSchema())
                    .append(metadata.getFileMetaData().getCreatedBy())
                    .append(new TreeMap<>(metadata.getFileMetaData().getKeyValueMetaData()));
            for (BlockMetaData block : metadata.getBlocks()) {
                footer.append(block.getRowCount()).append(' ').append(block.getTotalByteSize());
                for (ColumnChunkMetaData column : block.getColumns()) {
                    footer.append(column.getPath())
                            .append(column.getCodec())
                            .append(new TreeSet<>(column.getEncodings()))
                            .append(column.getFirstDataPageOffset())
                            .append(' ')
                            .append(column.getTotalSize())
                            .append(' ')
                            .append(column.getValueCount())
                            .append(column.getStatistics());
                }
            }
        }
        byte[] text = footer.toString().getBytes(StandardCharsets.UTF_8);
        byte[] canonical = Arrays.copyOf(bytes, bytes.length - 8 - footerLength + text.length);
        System.arraycopy(text, 0, canonical, bytes.length - 8 - footerLength, text.length);
        return canonical;
    }
}
