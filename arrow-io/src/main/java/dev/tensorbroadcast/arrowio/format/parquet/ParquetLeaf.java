package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.arrowio.FixedShapeTensorType;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.format.DatasetColumn;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowDatasetColumn;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceReader;
import dev.tensorbroadcast.arrowio.kept.HuggingFaceFeatures;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.planner.DType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * The tensor column of one Parquet file, as its footer describes it: where its values are, how a row's entries are
 * told apart (the definition levels of a row and of an entry, through any of the list layouts), its dtype and row
 * shape (from the Arrow schema pyarrow and we store, else the Parquet types), the {@code index} column if there is
 * one, and the projection a reader asks for.
 */
record ParquetLeaf(
        DatasetColumn column,
        ColumnDescriptor descriptor,
        int rowDefinition,
        int entryDefinition,
        ColumnDescriptor index,
        MessageType projection) {
    /** The tensor column of a file (the one named, or the only list of numbers), checked; and its index column. */
    static ParquetLeaf of(String name, FileMetaData metadata, Optional<String> requested) {
        MessageType schema = metadata.getSchema();
        List<String> names = schema.getFields().stream().map(Type::getName).toList();
        int chosen = ArrowSourceReader.chooseColumn(name, names, requested);
        String column = names.get(chosen);
        List<ColumnDescriptor> leaves = schema.getColumns().stream()
                .filter(descriptor -> descriptor.getPath()[0].equals(column))
                .toList();
        if (leaves.size() != 1 || leaves.get(0).getMaxRepetitionLevel() < 1) {
            throw new SourceFormatException(
                    name,
                    "column '" + column + "' is " + describe(schema.getType(column))
                            + "; a dataset's rows are a list of numbers");
        }
        ColumnDescriptor descriptor = leaves.get(0);
        int entryDefinition = entryDefinition(schema, descriptor);
        int rowDefinition = schema.getMaxDefinitionLevel(new String[] {column});
        DatasetColumn resolved = resolve(name, metadata, column, descriptor.getPrimitiveType());
        ColumnDescriptor index = null;
        MessageType projection = new MessageType(schema.getName(), schema.getType(column));
        if (!column.equals(TensorFileSchema.INDEX_COLUMN) && names.contains(TensorFileSchema.INDEX_COLUMN)) {
            Type indexType = schema.getType(TensorFileSchema.INDEX_COLUMN);
            if (!indexType.isPrimitive()
                    || indexType.isRepetition(Type.Repetition.REPEATED)
                    || indexType.asPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.INT64) {
                throw new SourceFormatException(
                        name,
                        "the index column is " + describe(indexType) + "; it must be int64, the position of each row");
            }
            index = schema.getColumnDescription(new String[] {TensorFileSchema.INDEX_COLUMN});
            projection = new MessageType(schema.getName(), schema.getType(column), indexType);
        }
        return new ParquetLeaf(resolved, descriptor, rowDefinition, entryDefinition, index, projection);
    }

    /**
     * The tensor column of a file this tool wrote, whose schema ({@code index} and the tensor, as {@code written} lays
     * them out) the caller has checked: any dtype the writer takes, read whole ({@code verify}, {@code export}).
     */
    static ParquetLeaf ofWritten(ParquetTensorSchema written) {
        MessageType schema = written.messageType();
        ColumnDescriptor descriptor = written.valuesDescriptor();
        String column = written.column().name();
        MessageType projection = new MessageType(
                schema.getName(), schema.getType(TensorFileSchema.INDEX_COLUMN), schema.getType(column));
        return new ParquetLeaf(
                new DatasetColumn(
                        column, written.column().dtype(), written.column().rowShape(), true),
                descriptor,
                schema.getMaxDefinitionLevel(new String[] {column}),
                entryDefinition(schema, descriptor),
                schema.getColumnDescription(new String[] {TensorFileSchema.INDEX_COLUMN}),
                projection);
    }

    /** The definition level at which an entry of the innermost list is there (present or null). */
    private static int entryDefinition(MessageType schema, ColumnDescriptor descriptor) {
        String[] path = descriptor.getPath();
        int entryDefinition = 0;
        for (int depth = 1; depth <= path.length; depth++) {
            String[] prefix = Arrays.copyOf(path, depth);
            if (schema.getType(prefix).isRepetition(Type.Repetition.REPEATED)) {
                // the innermost list's entries are the values; outer lists (Spark's array<array<float>>) nest rows
                entryDefinition = schema.getMaxDefinitionLevel(prefix);
            }
        }
        return entryDefinition;
    }

    /** The column's dtype and row shape: from the Arrow schema pyarrow and we store when it has them, else the types. */
    private static DatasetColumn resolve(String name, FileMetaData metadata, String column, PrimitiveType values) {
        Optional<Field> arrow = arrowField(metadata, column);
        if (arrow.isPresent()
                && (arrow.get().getType() instanceof ArrowType.FixedSizeList
                        || arrow.get().getType() instanceof ArrowType.ExtensionType)) {
            DatasetColumn tensor = ArrowDatasetColumn.of(name, arrow.get());
            PrimitiveTypeName expected = ParquetTensorSchema.physicalType(tensor.dtype());
            if (values.getPrimitiveTypeName() != expected) {
                throw new SourceFormatException(
                        name,
                        "column '" + column + "' is " + tensor.dtype().typeName()
                                + " in its Arrow schema but stored as " + values.getPrimitiveTypeName());
            }
            return tensor;
        }
        DType dtype = dtypeOf(values);
        if (dtype == null) {
            throw DatasetColumn.notNumbers(name, column, values.toString());
        }
        return DatasetColumn.checked(name, new DatasetColumn(column, dtype, null, false));
    }

    private static DType dtypeOf(PrimitiveType type) {
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        return switch (type.getPrimitiveTypeName()) {
            case FLOAT -> logical == null ? DType.FLOAT32 : null;
            case DOUBLE -> logical == null ? DType.FLOAT64 : null;
            case INT32 -> {
                if (logical == null) {
                    yield DType.INT32;
                }
                if (!(logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer)) {
                    yield null;
                }
                yield switch (integer.getBitWidth()) {
                    case 8 -> integer.isSigned() ? DType.INT8 : DType.UINT8;
                    case 16 -> integer.isSigned() ? DType.INT16 : DType.UINT16;
                    case 32 -> integer.isSigned() ? DType.INT32 : DType.UINT32;
                    default -> null;
                };
            }
            case INT64 -> {
                if (logical == null) {
                    yield DType.INT64;
                }
                yield logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer
                                && integer.getBitWidth() == 64
                        ? (integer.isSigned() ? DType.INT64 : DType.UINT64)
                        : null;
            }
            case FIXED_LEN_BYTE_ARRAY ->
                type.getTypeLength() == 2 && logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation
                        ? DType.FLOAT16
                        : null;
            default -> null;
        };
    }

    /** The column's field in the Arrow schema stored under {@code ARROW:schema}, when there is one that decodes. */
    private static Optional<Field> arrowField(FileMetaData metadata, String column) {
        String encoded = metadata.getKeyValueMetaData().get(ParquetTensorSchema.ARROW_SCHEMA_KEY);
        if (encoded == null) {
            return Optional.empty();
        }
        FixedShapeTensorType.register();
        try {
            byte[] bytes = Base64.getDecoder().decode(encoded);
            Schema schema = MessageSerializer.deserializeSchema(
                    new ReadChannel(Channels.newChannel(new ByteArrayInputStream(bytes))));
            return schema.getFields().stream()
                    .filter(field -> field.getName().equals(column))
                    .findFirst();
        } catch (IOException | RuntimeException e) {
            // a schema we cannot decode adds nothing the Parquet types do not say
            return Optional.empty();
        }
    }

    static String describe(Type type) {
        return type.toString().replaceAll("\\s+", " ").strip();
    }

    /** The file's top-level columns other than the tensor and index, with the Arrow types pyarrow stored, if any. */
    List<OtherColumn> others(FileMetaData metadata) {
        List<OtherColumn> others = new ArrayList<>();
        Map<String, String> features =
                HuggingFaceFeatures.parse(metadata.getKeyValueMetaData().get(HuggingFaceFeatures.KEY));
        for (Type type : metadata.getSchema().getFields()) {
            String name = type.getName();
            if (name.equals(column.name()) || (index != null && name.equals(TensorFileSchema.INDEX_COLUMN))) {
                continue;
            }
            Optional<KeptColumn> kept = HuggingFaceFeatures.withFeature(keptColumn(metadata, type), features);
            others.add(OtherColumn.of(name, describe(type), kept));
        }
        return others;
    }

    /** How a column is kept: as its Arrow type says when the file stores one that fits its values, else its own. */
    static Optional<KeptColumn> keptColumn(FileMetaData metadata, Type type) {
        Optional<KeptColumn> byArrow = arrowField(metadata, type.getName()).flatMap(KeptColumn::ofArrow);
        if (byArrow.isPresent()
                && type.isPrimitive()
                && byArrow.get().readableFrom(type.asPrimitiveType().getPrimitiveTypeName())) {
            return byArrow;
        }
        return KeptColumn.ofParquet(type);
    }
}
