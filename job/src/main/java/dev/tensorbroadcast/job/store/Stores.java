package dev.tensorbroadcast.job.store;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.store.s3.S3Store;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The one registry of stores: the built-in ones, then those a jar on the class path names in
 * {@code META-INF/services/dev.tensorbroadcast.job.store.Store}, then those {@link #register}ed while the JVM runs.
 * A path is the store's that serves its scheme; a path of no registered scheme is {@link HadoopStore}'s (any Hadoop
 * file system with a rename), and a location without a scheme the local disk's, as the default file system is.
 */
public final class Stores {
    private static final Store HADOOP = new HadoopStore();
    private static final List<Store> BUILT_IN = List.of(new LocalDiskStore(), HADOOP, new S3Store());
    private static final List<Store> LOADED = loaded();
    private static final List<Store> REGISTERED = new CopyOnWriteArrayList<>();

    private Stores() {}

    private static List<Store> loaded() {
        List<Store> stores = new ArrayList<>();
        for (Store store : ServiceLoader.load(Store.class, Stores.class.getClassLoader())) {
            stores.add(store);
        }
        return List.copyOf(stores);
    }

    /** Every store, the built-in ones first, in a fixed order. */
    public static List<Store> all() {
        List<Store> all = new ArrayList<>(BUILT_IN);
        all.addAll(LOADED);
        all.addAll(REGISTERED);
        return List.copyOf(all);
    }

    /** The store of a qualified path (or of a location as typed: one without a scheme is on the local disk). */
    public static Store forPath(Path path) {
        String scheme = path.toUri().getScheme();
        String key = scheme == null ? LocalDiskStore.SCHEME : scheme;
        return all().stream()
                .filter(store -> store.schemes().contains(key))
                .findFirst()
                .orElse(HADOOP);
    }

    /** The store of {@code location} as a user typed it. */
    public static Store forLocation(String location) {
        return forPath(new Path(location));
    }

    /** {@code conf} with every store's {@link Store#settings}: a job's tasks may read from any store. */
    public static Configuration settings(Configuration conf) {
        Configuration applied = conf;
        for (Store store : all()) {
            applied = store.settings(applied);
        }
        return applied;
    }

    /** Whether {@code name}, at the top of an output, is where any store's committer stages a job's work. */
    public static boolean isStagingName(String name) {
        return all().stream().anyMatch(store -> store.isStagingName(name));
    }

    /**
     * Adds {@code store} until the returned registration is closed: for a store that comes with no jar of its own
     * (a test's). A scheme already served is refused.
     */
    public static Registration register(Store store) {
        requireNonNull(store, "store is null");
        for (String scheme : store.schemes()) {
            if (all().stream().anyMatch(known -> known.schemes().contains(scheme))) {
                throw new IllegalArgumentException("a store of scheme '" + scheme + "' is registered already");
            }
        }
        REGISTERED.add(store);
        return () -> REGISTERED.remove(store);
    }

    /** A store added by {@link #register}; closing it removes the store. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
