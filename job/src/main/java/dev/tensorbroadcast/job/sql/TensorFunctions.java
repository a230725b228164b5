package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.AbstractDataType;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.ObjectType;
import org.apache.spark.sql.types.StringType;
import scala.Function1;
import scala.Option;
import scala.Tuple3;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;

/**
 * The SQL functions, for {@code spark.sql.extensions=dev.tensorbroadcast.job.sql.TensorFunctions}:
 * {@code tensor_broadcast_to(col, array(8, 64) [, 'dialect'])} broadcasts each row's tensor under the dialect's rule
 * (numpy when not named), and {@code tensor_shape(col)} is a row's shape. A row's tensor is nested arrays, one level
 * per dim, or a flat array whose column carries its shape ({@code tensor_shape} metadata, as this data source's
 * tables do). The target and dialect are constants, checked when the query is analysed; a row's shape is refused
 * as the command line refuses it, when the row is read.
 */
public final class TensorFunctions implements Function1<SparkSessionExtensions, BoxedUnit> {
    /** The function that broadcasts a row's tensor. */
    public static final String BROADCAST_TO = "tensor_broadcast_to";
    /** The function that gives a row's tensor's shape. */
    public static final String SHAPE = "tensor_shape";

    /** Registers the functions with each session Spark makes with this class in {@code spark.sql.extensions}. */
    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        extensions.injectFunction(new Tuple3<>(
                FunctionIdentifier.apply(BROADCAST_TO),
                new ExpressionInfo(
                        TensorFunctions.class.getName(),
                        null,
                        BROADCAST_TO,
                        "_FUNC_(tensor, shape[, dialect]) - the tensor broadcast to shape by the dialect's rule",
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                        ""),
                (Function1<Seq<Expression>, Expression>)
                        arguments -> broadcastTo(CollectionConverters.asJava(arguments))));
        extensions.injectFunction(new Tuple3<>(
                FunctionIdentifier.apply(SHAPE),
                new ExpressionInfo(
                        TensorFunctions.class.getName(),
                        null,
                        SHAPE,
                        "_FUNC_(tensor) - the shape of a tensor",
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                        ""),
                (Function1<Seq<Expression>, Expression>) arguments -> shape(CollectionConverters.asJava(arguments))));
        return BoxedUnit.UNIT;
    }

    /** Broadcasts one row: called by the generated code of {@code tensor_broadcast_to}. */
    public static ArrayData broadcastRow(Object broadcast, ArrayData row) {
        return ((RowBroadcast) broadcast).apply(row);
    }

    /** A row's shape from its {@code depth} levels of nested arrays: called by {@code tensor_shape}. */
    public static ArrayData shapeOf(int depth, ArrayData row) {
        long[] dims = new long[depth];
        ArrayData level = row;
        for (int i = 0; i < depth && level != null; i++) {
            dims[i] = level.numElements();
            level = i < depth - 1 && level.numElements() > 0 ? level.getArray(0) : null;
        }
        return UnsafeArrayData.fromPrimitiveArray(dims);
    }

    static Expression broadcastTo(List<Expression> arguments) {
        if (arguments.size() < 2 || arguments.size() > 3) {
            throw new InvalidRequestException("Cannot call " + BROADCAST_TO + " with " + arguments.size()
                    + " arguments: give the tensor, the target shape such as array(8, 64), and a dialect");
        }
        Expression tensor = arguments.get(0);
        TargetShape target = TargetShape.parse(constantShape(arguments.get(1)));
        Dialect dialect =
                arguments.size() == 3 ? Dialect.parse(constantText(arguments.get(2), "dialect")) : Dialect.NUMPY;
        int depth = depth(tensor.dataType());
        if (depth == 0) {
            throw new InvalidRequestException(
                    "Cannot call " + BROADCAST_TO + " on " + tensor.dataType().simpleString()
                            + ": give an array, one level per dim, or this data source's tensor column");
        }
        DataType leaf = leaf(tensor.dataType());
        RowBroadcast broadcast = new RowBroadcast(
                dialect, target, leaf, depth, fixedShape(tensor).orElse(null));
        int rank = broadcast.outputRank();
        if (rank == 0) {
            throw new InvalidRequestException("Cannot call " + BROADCAST_TO + " with target " + target.toList()
                    + ": a row's tensor is an array; give a target of rank 1 or more");
        }
        DataType type = leaf;
        boolean containsNull = containsNull(tensor.dataType());
        for (int i = 0; i < rank; i++) {
            type = DataTypes.createArrayType(type, i == 0 && containsNull);
        }
        // an Object to the generated code, which cannot see this package's classes
        return invoke("broadcastRow", type, List.of(new Literal(broadcast, new ObjectType(Object.class)), tensor));
    }

    static Expression shape(List<Expression> arguments) {
        if (arguments.size() != 1) {
            throw new InvalidRequestException(
                    "Cannot call " + SHAPE + " with " + arguments.size() + " arguments:" + " give the tensor");
        }
        Expression tensor = arguments.get(0);
        Optional<Shape> fixed = fixedShape(tensor);
        if (fixed.isPresent()) {
            return new Literal(
                    UnsafeArrayData.fromPrimitiveArray(fixed.get().dims()),
                    DataTypes.createArrayType(DataTypes.LongType, false));
        }
        int depth = depth(tensor.dataType());
        return invoke(
                "shapeOf",
                DataTypes.createArrayType(DataTypes.LongType, false),
                List.of(Literal.create(depth, DataTypes.IntegerType), tensor));
    }

    private static Expression invoke(String method, DataType type, List<Expression> arguments) {
        return new StaticInvoke(
                TensorFunctions.class,
                type,
                method,
                CollectionConverters.asScala(arguments).toList(),
                CollectionConverters.asScala(List.<AbstractDataType>of()).toList(),
                true,
                true,
                true,
                Option.empty());
    }

    /** The row shape a flat array column carries in its metadata, as this data source's tables do. */
    private static Optional<Shape> fixedShape(Expression tensor) {
        if (tensor instanceof Attribute attribute
                && depth(tensor.dataType()) == 1
                && attribute.metadata().contains(SparkTypes.SHAPE_METADATA)) {
            return Optional.of(Shape.of(attribute.metadata().getLongArray(SparkTypes.SHAPE_METADATA)));
        }
        return Optional.empty();
    }

    private static String constantShape(Expression shape) {
        if (!shape.foldable()
                || !(shape.dataType() instanceof ArrayType array)
                || (!DataTypes.LongType.acceptsType(array.elementType())
                        && !DataTypes.IntegerType.acceptsType(array.elementType()))) {
            throw new InvalidRequestException("Cannot call " + BROADCAST_TO + " with target " + shape.sql()
                    + ": give a constant array of integers, such as array(8, 64)");
        }
        ArrayData dims = (ArrayData) shape.eval(null);
        StringJoiner text = new StringJoiner(",", "[", "]");
        for (int i = 0; i < dims.numElements(); i++) {
            text.add(String.valueOf(array.elementType() == DataTypes.LongType ? dims.getLong(i) : dims.getInt(i)));
        }
        return text.toString();
    }

    private static String constantText(Expression text, String what) {
        if (!text.foldable() || !(text.dataType() instanceof StringType)) {
            throw new InvalidRequestException("Cannot call " + BROADCAST_TO + " with " + what + " " + text.sql()
                    + ": give a constant string, such as 'numpy'");
        }
        return String.valueOf(text.eval(null));
    }

    private static int depth(DataType type) {
        return type instanceof ArrayType array ? 1 + depth(array.elementType()) : 0;
    }

    private static DataType leaf(DataType type) {
        return type instanceof ArrayType array ? leaf(array.elementType()) : type;
    }

    private static boolean containsNull(DataType type) {
        return type instanceof ArrayType array && (array.containsNull() || containsNull(array.elementType()));
    }
}
