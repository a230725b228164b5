package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.arrowio.TensorFileSchema;
import java.util.Optional;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;

/**
 * The rows {@code [first, end)} that filters on {@code index} leave: what a scan reads, since a part file holds a
 * consecutive run of rows. Spark still applies the filters to the rows read, so a range only has to hold them all.
 */
record IndexRange(long first, long end) {
    static final IndexRange ALL = new IndexRange(0, Long.MAX_VALUE);

    /** The range {@code filter} keeps, or empty when it is not one on {@code index} this reads. */
    static Optional<IndexRange> of(Filter filter) {
        if (filter instanceof And and) {
            Optional<IndexRange> left = of(and.left());
            Optional<IndexRange> right = of(and.right());
            if (left.isEmpty() && right.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(left.orElse(ALL).intersect(right.orElse(ALL)));
        }
        if (filter instanceof In in && isIndex(in.attribute())) {
            long low = Long.MAX_VALUE;
            long high = Long.MIN_VALUE;
            for (Object value : in.values()) {
                if (!integral(value)) {
                    return Optional.empty();
                }
                low = Math.min(low, ((Number) value).longValue());
                high = Math.max(high, ((Number) value).longValue());
            }
            return Optional.of(low > high ? new IndexRange(0, 0) : closed(low, high));
        }
        if (filter instanceof EqualTo equal
                && isIndex(equal.attribute())
                && integral(equal.value())
                && equal.value() instanceof Number value) {
            return Optional.of(closed(value.longValue(), value.longValue()));
        }
        if (filter instanceof GreaterThan greater
                && isIndex(greater.attribute())
                && integral(greater.value())
                && greater.value() instanceof Number value) {
            return Optional.of(
                    value.longValue() == Long.MAX_VALUE
                            ? new IndexRange(0, 0)
                            : closed(value.longValue() + 1, Long.MAX_VALUE));
        }
        if (filter instanceof GreaterThanOrEqual greater
                && isIndex(greater.attribute())
                && integral(greater.value())
                && greater.value() instanceof Number value) {
            return Optional.of(closed(value.longValue(), Long.MAX_VALUE));
        }
        if (filter instanceof LessThan less
                && isIndex(less.attribute())
                && integral(less.value())
                && less.value() instanceof Number value) {
            return Optional.of(new IndexRange(0, Math.max(0, value.longValue())));
        }
        if (filter instanceof LessThanOrEqual less
                && isIndex(less.attribute())
                && integral(less.value())
                && less.value() instanceof Number value) {
            return Optional.of(closed(Long.MIN_VALUE, value.longValue()));
        }
        return Optional.empty();
    }

    IndexRange intersect(IndexRange other) {
        long low = Math.max(first, other.first);
        long high = Math.min(end, other.end);
        return low >= high ? new IndexRange(0, 0) : new IndexRange(low, high);
    }

    boolean isEmpty() {
        return first >= end;
    }

    /** Rows {@code low..high}, both kept; rows are never negative, and no row is {@code Long.MAX_VALUE}. */
    private static IndexRange closed(long low, long high) {
        long first = Math.max(0, low);
        long end = high == Long.MAX_VALUE ? Long.MAX_VALUE : high + 1;
        return first >= end ? new IndexRange(0, 0) : new IndexRange(first, end);
    }

    /** Whether {@code value} is a whole number: a fractional one's bounds would not be rows. */
    private static boolean integral(Object value) {
        return value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte;
    }

    private static boolean isIndex(String attribute) {
        return attribute.equals(TensorFileSchema.INDEX_COLUMN);
    }
}
