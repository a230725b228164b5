package dev.tensorbroadcast.job.sql;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;

/**
 * Spark's filters on kept columns as a Parquet predicate a file's row group statistics are tested against: a row
 * group whose statistics exclude it holds no row the filter keeps. A filter is taken only where its meaning in Parquet
 * is Spark's: signed integers, floats, doubles, booleans and strings, compared as Spark compares them; anything else
 * (unsigned integers, dates, timestamps, binary, {@code NOT}) is left to Spark's filter after the read, so a
 * predicate may keep more rows than the filters, never fewer.
 */
final class KeptFilters {
    private KeptFilters() {}

    /** The filters Spark gave, ANDed, as far as {@code schema}'s columns {@code kept} can test them; empty for none. */
    static Optional<FilterPredicate> predicate(List<Filter> filters, List<String> kept, MessageType schema) {
        List<FilterPredicate> taken = new ArrayList<>();
        for (Filter filter : filters) {
            of(filter, kept, schema).ifPresent(taken::add);
        }
        return taken.stream().reduce(FilterApi::and);
    }

    /** Whether {@code filter} names kept columns only: one worth testing statistics against. */
    static boolean onKept(Filter filter, List<String> kept) {
        return filter.references().length > 0
                && List.of(filter.references()).stream().allMatch(kept::contains);
    }

    private static Optional<FilterPredicate> of(Filter filter, List<String> kept, MessageType schema) {
        if (filter instanceof And and) {
            // either side alone keeps at least the rows both keep
            Optional<FilterPredicate> left = of(and.left(), kept, schema);
            Optional<FilterPredicate> right = of(and.right(), kept, schema);
            if (left.isPresent() && right.isPresent()) {
                return Optional.of(FilterApi.and(left.get(), right.get()));
            }
            return left.isPresent() ? left : right;
        }
        if (filter instanceof Or or) {
            Optional<FilterPredicate> left = of(or.left(), kept, schema);
            Optional<FilterPredicate> right = of(or.right(), kept, schema);
            return left.isPresent() && right.isPresent()
                    ? Optional.of(FilterApi.or(left.get(), right.get()))
                    : Optional.empty();
        }
        if (filter instanceof IsNull isNull) {
            return column(isNull.attribute(), kept, schema).map(StatsColumn::isNull);
        }
        if (filter instanceof IsNotNull isNotNull) {
            return column(isNotNull.attribute(), kept, schema).map(StatsColumn::isNotNull);
        }
        if (filter instanceof EqualTo equal) {
            return compare(equal.attribute(), equal.value(), Op.EQ, kept, schema);
        }
        if (filter instanceof LessThan less) {
            return compare(less.attribute(), less.value(), Op.LT, kept, schema);
        }
        if (filter instanceof LessThanOrEqual less) {
            return compare(less.attribute(), less.value(), Op.LT_EQ, kept, schema);
        }
        if (filter instanceof GreaterThan greater) {
            return compare(greater.attribute(), greater.value(), Op.GT, kept, schema);
        }
        if (filter instanceof GreaterThanOrEqual greater) {
            return compare(greater.attribute(), greater.value(), Op.GT_EQ, kept, schema);
        }
        if (filter instanceof In in) {
            Optional<FilterPredicate> any = Optional.empty();
            for (Object value : in.values()) {
                Optional<FilterPredicate> one = compare(in.attribute(), value, Op.EQ, kept, schema);
                if (one.isEmpty()) {
                    return Optional.empty();
                }
                any = Optional.of(
                        any.map(other -> FilterApi.or(other, one.get())).orElse(one.get()));
            }
            return any;
        }
        return Optional.empty();
    }

    private enum Op {
        EQ,
        LT,
        LT_EQ,
        GT,
        GT_EQ
    }

    private static Optional<FilterPredicate> compare(
            String name, Object value, Op op, List<String> kept, MessageType schema) {
        if (value == null) {
            // a comparison with null keeps no row in Spark; Parquet would read it as IS NULL
            return Optional.empty();
        }
        return column(name, kept, schema).flatMap(column -> column.compare(op, value));
    }

    /** The kept column {@code name} where Parquet's statistics order its values as Spark does. */
    private static Optional<StatsColumn> column(String name, List<String> kept, MessageType schema) {
        // a dotted name is a nested field to Parquet's filter API, and a kept column is a top-level one
        if (!kept.contains(name) || name.contains(".") || !schema.containsField(name)) {
            return Optional.empty();
        }
        Type type = schema.getType(name);
        if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
            return Optional.empty();
        }
        PrimitiveType primitive = type.asPrimitiveType();
        LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
        boolean signedOrPlain = logical == null
                || (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && integer.isSigned());
        return switch (primitive.getPrimitiveTypeName()) {
            // tinyint, smallint and int literals: each fits the column's int32
            case INT32 ->
                signedOrPlain
                        ? Optional.of(new Ordered<>(
                                FilterApi.intColumn(name),
                                v -> v instanceof Byte || v instanceof Short || v instanceof Integer
                                        ? ((Number) v).intValue()
                                        : null,
                                ALL))
                        : Optional.empty();
            case INT64 ->
                signedOrPlain
                        ? Optional.of(
                                new Ordered<>(FilterApi.longColumn(name), v -> v instanceof Long l ? l : null, ALL))
                        : Optional.empty();
            // NaN is larger than any number to Spark (a NaN row passes > and >=), and outside a Parquet writer's
            // min and max: no NaN literal, and no > or >=
            case FLOAT ->
                logical == null
                        ? Optional.of(new Ordered<>(
                                FilterApi.floatColumn(name), v -> v instanceof Float f && !f.isNaN() ? f : null, UP_TO))
                        : Optional.empty();
            case DOUBLE ->
                logical == null
                        ? Optional.of(new Ordered<>(
                                FilterApi.doubleColumn(name),
                                v -> v instanceof Double d && !d.isNaN() ? d : null,
                                UP_TO))
                        : Optional.empty();
            case BOOLEAN -> Optional.of(new Booleans(FilterApi.booleanColumn(name)));
            // Parquet orders UTF-8 strings by their unsigned bytes, as Spark orders strings
            case BINARY ->
                logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        ? Optional.of(new Ordered<>(
                                FilterApi.binaryColumn(name),
                                v -> v instanceof String text ? Binary.fromString(text) : null,
                                ALL))
                        : Optional.empty();
            default -> Optional.empty();
        };
    }

    private static final Set<Op> ALL = EnumSet.allOf(Op.class);
    private static final Set<Op> UP_TO = EnumSet.of(Op.EQ, Op.LT, Op.LT_EQ);

    /** A column whose statistics can be tested, with Spark's values in its Parquet type. */
    private interface StatsColumn {
        /** IS NULL: Parquet's equality with null. */
        FilterPredicate isNull();

        /** IS NOT NULL: Parquet's inequality with null. */
        FilterPredicate isNotNull();

        Optional<FilterPredicate> compare(Op op, Object value);
    }

    /**
     * An ordered column: {@code value} turns a Spark literal into the column's type (null where it cannot be taken),
     * {@code ops} are the comparisons whose meaning in Parquet is Spark's.
     */
    private record Ordered<T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt>(
            C column, Function<Object, T> value, Set<Op> ops) implements StatsColumn {
        @Override
        public FilterPredicate isNull() {
            return FilterApi.eq(column, (T) null);
        }

        @Override
        public FilterPredicate isNotNull() {
            return FilterApi.notEq(column, (T) null);
        }

        @Override
        public Optional<FilterPredicate> compare(Op op, Object literal) {
            T typed = value.apply(literal);
            if (typed == null || !ops.contains(op)) {
                return Optional.empty();
            }
            return Optional.of(
                    switch (op) {
                        case EQ -> FilterApi.eq(column, typed);
                        case LT -> FilterApi.lt(column, typed);
                        case LT_EQ -> FilterApi.ltEq(column, typed);
                        case GT -> FilterApi.gt(column, typed);
                        case GT_EQ -> FilterApi.gtEq(column, typed);
                    });
        }
    }

    /** A boolean column: equality only, as Parquet orders no booleans. */
    private record Booleans(Operators.BooleanColumn column) implements StatsColumn {
        @Override
        public FilterPredicate isNull() {
            return FilterApi.eq(column, (Boolean) null);
        }

        @Override
        public FilterPredicate isNotNull() {
            return FilterApi.notEq(column, (Boolean) null);
        }

        @Override
        public Optional<FilterPredicate> compare(Op op, Object value) {
            return op == Op.EQ && value instanceof Boolean bool
                    ? Optional.of(FilterApi.eq(column, bool))
                    : Optional.empty();
        }
    }
}
