package dev.tensorbroadcast.arrowio.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.SourceRows;

/**
 * Rows of a dataset read onto the heap: {@code tensor} holds dataset rows {@code rows}, so source element {@code e}
 * of the whole dataset is element {@code e - rows.first() * rowElements} of the tensor.
 *
 * @param rows the dataset rows held
 * @param tensor the rows as a tensor of shape {@code [rows.count()] + rowShape}
 * @param bytesRead the bytes the read took from the file systems, as Hadoop's statistics count them
 */
public record SourceSlice(SourceRows rows, SourceTensor tensor, long bytesRead) {
    public SourceSlice {
        requireNonNull(rows, "rows is null");
        requireNonNull(tensor, "tensor is null");
        if (tensor.shape().rank() == 0 || tensor.shape().dim(0) != rows.count()) {
            throw new IllegalArgumentException("a slice of rows " + rows + " holds " + tensor);
        }
    }
}
