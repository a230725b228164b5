package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.arrowio.format.SliceBuffer;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Param;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The rows of a Parquet list column, walked value by value through parquet-java's column reader: a row's entries are
 * told apart by their levels (any list layout, lists of lists included), and every row is checked to hold its values
 * whole. The one walk of {@link ParquetTensorReader}, whether it fills a task's slice or a whole file's batch.
 */
final class ParquetRows {
    /** Where the entries of the rows read go. */
    interface Target {
        /** Stores the reader's current value as entry {@code entry} of row {@code row}. */
        void put(ColumnReader values, long row, long entry);

        /** Entry {@code entry} of row {@code row} is null. */
        void putNull(long row, long entry);
    }

    private ParquetRows() {}

    /**
     * Reads group rows {@code [first, last)} of one row group's column into {@code out} from row {@code outRow} on
     * (the rows before {@code first} are read past); {@code fileRow} is the file row of the group's row 0, for
     * messages. Each row must hold {@code rowEntries} entries, each innermost list {@code innerLength} of them.
     * Returns the values consumed.
     */
    static long read(
            String name,
            ColumnReader values,
            ParquetLeaf leaf,
            long rowEntries,
            long innerLength,
            long first,
            long last,
            long fileRow,
            Target out,
            long outRow) {
        int maxDefinition = leaf.descriptor().getMaxDefinitionLevel();
        long total = values.getTotalValueCount();
        long consumed = 0;
        // lists of lists: every innermost list holds one last dim of the row
        int nesting = leaf.descriptor().getMaxRepetitionLevel();
        for (long row = 0; row < last; row++) {
            boolean keep = row >= first;
            long at = outRow + row - first;
            long count = 0;
            boolean nullRow = false;
            long innerCount = -1;
            long badInner = -1;
            boolean missingInner = false;
            do {
                if (consumed == total) {
                    throw new SourceFormatException(name, "a row group ends before its row " + (fileRow + row));
                }
                int definition = values.getCurrentDefinitionLevel();
                if (nesting > 1 && values.getCurrentRepetitionLevel() < nesting) {
                    if (innerCount >= 0 && innerCount != innerLength && badInner < 0) {
                        badInner = innerCount;
                    }
                    innerCount = 0;
                }
                boolean present = definition == maxDefinition;
                if (definition >= leaf.entryDefinition()) {
                    if (keep && count < rowEntries) {
                        if (present) {
                            out.put(values, at, count);
                        } else {
                            out.putNull(at, count);
                        }
                    } else if (present) {
                        values.skip();
                    }
                    count++;
                    innerCount++;
                } else if (definition < leaf.rowDefinition()) {
                    nullRow = true;
                } else if (nesting > 1 && definition > leaf.rowDefinition()) {
                    missingInner = true;
                }
                values.consume();
                consumed++;
            } while (consumed < total && values.getCurrentRepetitionLevel() > 0);
            if (keep && nullRow) {
                throw new SourceFormatException(name, "row " + (fileRow + row) + " is null; every row needs values");
            }
            if (keep && missingInner) {
                throw new SourceFormatException(
                        name,
                        "row " + (fileRow + row) + " has a null or empty inner list;"
                                + " every row needs all its values");
            }
            if (keep && count != rowEntries) {
                throw new SourceFormatException(
                        name,
                        "row " + (fileRow + row) + " has " + count + " values; every row needs " + rowEntries + " ("
                                + Param.ROW_SHAPE.named() + ")");
            }
            if (nesting > 1 && innerCount != innerLength && badInner < 0) {
                badInner = innerCount;
            }
            if (keep && badInner >= 0) {
                throw new SourceFormatException(
                        name,
                        "row " + (fileRow + row) + " has an inner list of " + badInner
                                + " values; its innermost lists are the row's last dim, " + innerLength
                                + " (" + Param.ROW_SHAPE.named() + ")");
            }
        }
        return consumed;
    }

    /** A task's slice: numbers at their width, little-endian, from any of the physical types that hold them. */
    static Target into(SliceBuffer out, PrimitiveTypeName physical) {
        ByteBuffer target = ByteBuffer.wrap(out.values()).order(ByteOrder.LITTLE_ENDIAN);
        int width = out.width();
        return new Target() {
            @Override
            public void put(ColumnReader values, long row, long entry) {
                int offset = out.offset(row, entry);
                switch (physical) {
                    case FLOAT -> target.putFloat(offset, values.getFloat());
                    case DOUBLE -> target.putDouble(offset, values.getDouble());
                    case INT64 -> target.putLong(offset, values.getLong());
                    case INT32 -> {
                        int value = values.getInteger();
                        switch (width) {
                            case 1 -> target.put(offset, (byte) value);
                            case 2 -> target.putShort(offset, (short) value);
                            default -> target.putInt(offset, value);
                        }
                    }
                    case FIXED_LEN_BYTE_ARRAY -> {
                        // Parquet's FLOAT16 is two little-endian bytes, as Arrow's
                        ByteBuffer half = values.getBinary().toByteBuffer();
                        target.put(offset, half.get(half.position()));
                        target.put(offset + 1, half.get(half.position() + 1));
                    }
                    default -> throw new IllegalStateException("no numbers stored as " + physical);
                }
            }

            @Override
            public void putNull(long row, long entry) {
                out.setNull(row, entry);
            }
        };
    }

    /**
     * A whole row group as one batch, for every dtype this tool writes: a complex element is two entries (real,
     * imaginary), valid when both are; a string's bytes follow the previous element's. The walk gives every entry of
     * the group in order, so the target counts them rather than computing each one's place, and marks every element
     * valid up front, clearing only the nulls. A null element's value is zero.
     */
    static final class BatchTarget implements Target {
        private final ElementBatch batch;
        private final DType dtype;
        private final boolean complex;
        private int next;
        private int dataBytes;

        BatchTarget(ElementBatch batch) {
            this.batch = batch;
            this.dtype = batch.dtype();
            this.complex = ArrowDTypes.isComplex(dtype);
        }

        /** Before a batch's first entry, once the batch is reset to its size. */
        void start() {
            next = 0;
            dataBytes = 0;
            batch.setAllValid();
            if (dtype == DType.STRING) {
                batch.offsets().setInt(0, 0);
            }
        }

        @Override
        public void put(ColumnReader values, long row, long entry) {
            int i = next++;
            ArrowBuf out = batch.values();
            switch (dtype) {
                case BOOL -> batch.setBit(i, values.getBoolean());
                case INT8, UINT8 -> out.setByte(i, values.getInteger());
                case INT16, UINT16, BFLOAT16 -> out.setShort(2L * i, values.getInteger());
                case INT32, UINT32 -> out.setInt(4L * i, values.getInteger());
                case INT64, UINT64 -> out.setLong(8L * i, values.getLong());
                case FLOAT16 -> out.setShort(2L * i, littleEndianShort(values.getBinary()));
                case FLOAT32, COMPLEX64 -> out.setFloat(4L * i, values.getFloat());
                case FLOAT64, COMPLEX128 -> out.setDouble(8L * i, values.getDouble());
                case STRING -> {
                    Binary binary = values.getBinary();
                    int length = binary.length();
                    ArrowBuf data = batch.ensureData((long) dataBytes + length);
                    data.setBytes(dataBytes, binary.toByteBuffer());
                    dataBytes += length;
                    batch.offsets().setInt(4L * (i + 1), dataBytes);
                }
            }
        }

        @Override
        public void putNull(long row, long entry) {
            int i = next++;
            switch (dtype) {
                case BOOL -> batch.setBit(i, false);
                case STRING -> batch.offsets().setInt(4L * (i + 1), dataBytes);
                default -> {
                    int width = complex ? dtype.byteWidth() / 2 : dtype.byteWidth();
                    batch.values().setZero((long) i * width, width);
                }
            }
            batch.setValid(complex ? i >>> 1 : i, false);
        }

        private static short littleEndianShort(Binary binary) {
            ByteBuffer bytes = binary.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            return bytes.getShort(bytes.position());
        }
    }
}
