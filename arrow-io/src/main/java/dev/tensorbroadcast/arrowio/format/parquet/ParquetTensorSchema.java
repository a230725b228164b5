package dev.tensorbroadcast.arrowio.format.parquet;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowTensorFileWriter;
import dev.tensorbroadcast.arrowio.kept.HuggingFaceFeatures;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * The Parquet layout of our rows: {@code required int64 index} and {@code required group tensor (LIST) { repeated
 * group list { optional <value> element } }}, the three-level list every reader understands, plus the Arrow schema
 * under {@code ARROW:schema} so pyarrow restores the tensor type. In the {@link RowLayout#NESTED nested} layout each
 * further stored dimension of a row nests one more such list in {@code element} ({@code required group element
 * (LIST)}), and the Arrow schema says nested fixed-size lists.
 */
public final class ParquetTensorSchema {
    /** The index column's name: {@link ArrowTensorFileWriter#INDEX_COLUMN}, as in Arrow files. */
    public static final String ARROW_SCHEMA_KEY = "ARROW:schema";
    /** The names of a three-level list's repeated group and its entry. */
    private static final String LIST = "list";

    private static final String ELEMENT = "element";

    private final TensorColumn column;
    private final List<KeptColumn> kept;
    private final RowLayout layout;
    /** The sizes of the lists a row's values are nested in, outermost first. */
    private final Shape lists;

    private final MessageType messageType;

    public ParquetTensorSchema(TensorColumn column) {
        this(column, List.of());
    }

    /** Rows of {@code column} with the {@code kept} columns after it, in that order. */
    public ParquetTensorSchema(TensorColumn column, List<KeptColumn> kept) {
        this(column, kept, RowLayout.FLAT);
    }

    /** Rows of {@code column} in {@code layout}, with the {@code kept} columns after it, in that order. */
    public ParquetTensorSchema(TensorColumn column, List<KeptColumn> kept, RowLayout layout) {
        this.column = requireNonNull(column, "column is null");
        this.kept = List.copyOf(kept);
        this.layout = requireNonNull(layout, "layout is null");
        Shape storage = column.storageShape();
        this.lists = nests(layout, storage) ? storage : Shape.of(storage.elements());
        Type level = Types.primitive(physicalType(column.dtype()), Repetition.OPTIONAL)
                .length(column.dtype() == DType.FLOAT16 ? 2 : 0)
                .as(logicalType(column.dtype()))
                .named(ELEMENT);
        for (int depth = lists.rank() - 1; depth > 0; depth--) {
            level = Types.requiredGroup()
                    .as(LogicalTypeAnnotation.listType())
                    .addField(Types.repeatedGroup().addField(level).named(LIST))
                    .named(ELEMENT);
        }
        Types.MessageTypeBuilder message = Types.buildMessage();
        message.required(PrimitiveTypeName.INT64)
                .named(TensorFileSchema.INDEX_COLUMN)
                .requiredGroup()
                .as(LogicalTypeAnnotation.listType())
                .repeatedGroup()
                .addField(level)
                .named(LIST)
                .named(column.name());
        for (KeptColumn keptColumn : this.kept) {
            message.addField(keptColumn.parquetType());
        }
        this.messageType = message.named("tensor_broadcast");
    }

    /**
     * Whether rows of {@code storage} shape are nested lists in {@code layout}: with two or more dimensions and any
     * values. A row without values stays one empty list, so no row has more level entries than values.
     */
    public static boolean nests(RowLayout layout, Shape storage) {
        return layout == RowLayout.NESTED && storage.rank() >= 2 && storage.elements() > 0;
    }

    public RowLayout layout() {
        return layout;
    }

    /** Level entries of one row in the values column: its stored values, or 1 or more empty lists. */
    public long entriesPerRow() {
        return levels().entries;
    }

    RowLevels levels() {
        return new RowLevels(lists);
    }

    public TensorColumn column() {
        return column;
    }

    public MessageType messageType() {
        return messageType;
    }

    public List<KeptColumn> kept() {
        return kept;
    }

    ColumnDescriptor keptDescriptor(int i) {
        return messageType.getColumnDescription(new String[] {kept.get(i).name()});
    }

    ColumnDescriptor indexDescriptor() {
        return messageType.getColumnDescription(new String[] {TensorFileSchema.INDEX_COLUMN});
    }

    /** The column of the tensor's values: {@code tensor.list.element}, one {@code list.element} more per nesting. */
    public ColumnDescriptor valuesDescriptor() {
        String[] path = new String[1 + 2 * lists.rank()];
        path[0] = column.name();
        for (int depth = 0; depth < lists.rank(); depth++) {
            path[1 + 2 * depth] = LIST;
            path[2 + 2 * depth] = ELEMENT;
        }
        return messageType.getColumnDescription(path);
    }

    /**
     * The footer's key-value metadata: the Arrow schema, and, when kept columns carry Hugging Face features, those
     * and the tensor's under {@code huggingface}, as {@code datasets} writes its own (pyarrow reads either into the
     * schema's metadata).
     */
    public Map<String, String> keyValueMetadata() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put(ARROW_SCHEMA_KEY, arrowSchema());
        huggingFace().ifPresent(features -> metadata.put(HuggingFaceFeatures.KEY, features));
        return metadata;
    }

    /** The kept columns' Hugging Face features, and the tensor's where the layout has one (nested lists). */
    private Optional<String> huggingFace() {
        Optional<String> tensor = lists.rank() >= 2
                ? HuggingFaceFeatures.nestedLists(lists, ArrowDTypes.valueType(column.dtype()))
                : Optional.empty();
        return HuggingFaceFeatures.schemaMetadata(kept, column.name(), tensor);
    }

    /** The Arrow schema of the same rows, as pyarrow stores it: base64 of an IPC schema message. */
    public String arrowSchema() {
        Schema schema = lists.rank() >= 2
                ? TensorFileSchema.schema(column.nestedField(), kept)
                : TensorFileSchema.schema(column, kept);
        Optional<String> huggingFace = huggingFace();
        if (huggingFace.isPresent()) {
            schema = new Schema(schema.getFields(), Map.of(HuggingFaceFeatures.KEY, huggingFace.get()));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    public static PrimitiveTypeName physicalType(DType dtype) {
        return switch (dtype) {
            case BOOL -> PrimitiveTypeName.BOOLEAN;
            case INT8, INT16, INT32, UINT8, UINT16, UINT32, BFLOAT16 -> PrimitiveTypeName.INT32;
            case INT64, UINT64 -> PrimitiveTypeName.INT64;
            case FLOAT16 -> PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
            case FLOAT32, COMPLEX64 -> PrimitiveTypeName.FLOAT;
            case FLOAT64, COMPLEX128 -> PrimitiveTypeName.DOUBLE;
            case STRING -> PrimitiveTypeName.BINARY;
        };
    }

    private static LogicalTypeAnnotation logicalType(DType dtype) {
        return switch (dtype) {
            case INT8 -> LogicalTypeAnnotation.intType(8, true);
            case INT16 -> LogicalTypeAnnotation.intType(16, true);
            case UINT8 -> LogicalTypeAnnotation.intType(8, false);
            case UINT16, BFLOAT16 -> LogicalTypeAnnotation.intType(16, false);
            case UINT32 -> LogicalTypeAnnotation.intType(32, false);
            case UINT64 -> LogicalTypeAnnotation.intType(64, false);
            case FLOAT16 -> LogicalTypeAnnotation.float16Type();
            case STRING -> LogicalTypeAnnotation.stringType();
            default -> null;
        };
    }
}
