/**
 * What several of {@code job}'s packages share, below all of them: the refusals a location or dataset may meet
 * ({@code InputException}, {@code OutputException}, {@code DatasetException}), a failed Spark job
 * ({@code JobFailedException}), progress ({@code Progress}), freeing broadcasts, CRC32C, local files written whole,
 * failure reasons (a store's own, through {@code StoreFailureReader}) and the tool's version, and where a task looks
 * whether it was stopped ({@code TaskStop}, {@code TaskGroups}: this JVM's tasks by their job group). It imports
 * nothing of {@code job}'s; see {@code PackageArrowsTest} for the arrows between the packages.
 */
package dev.tensorbroadcast.job.base;
