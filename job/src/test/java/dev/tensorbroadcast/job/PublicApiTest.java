package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Java API ({@code dev.tensorbroadcast.job}: the requests, their builders, prepared runs and results) names no
 * type of the pipeline's packages in a public signature: every public constructor, method and field of every public
 * class of the package, with its generic arguments, is read by reflection. A type of those packages that the API
 * shows on purpose is listed in {@link #SHOWN} with the reason; anything else fails here, naming the member.
 */
class PublicApiTest {
    private static final String API = "dev.tensorbroadcast.job";
    private static final Set<String> INTERNAL =
            Set.of("source", "pipeline", "sink", "commit", "manifest", "dataset", "base", "cli");

    /**
     * Internal types the API shows on purpose, each with why. A value the pipeline makes or calls and the API shows is
     * one type, kept below the pipeline (which may not import the API) and listed here; it is not mirrored by a type
     * of the API's own and a bridge. A type the pipeline never sees goes into {@code dev.tensorbroadcast.job}.
     */
    private static final Map<String, String> SHOWN = Map.of(
            API + ".manifest.Manifest",
                    "what a run wrote: the record of _manifest.json, a documented file format"
                            + " (docs/formats.md) that a caller reads back as it is; moving it up would make the manifest"
                            + " package, which the pipeline writes, import the API",
            API + ".base.Progress",
                    "the caller's listener, which the API hands to the jobs as it is: the pipeline"
                            + " and the verifier call it, so it cannot be in the API's package",
            API + ".base.DiscardedBroadcast",
                    "what the null sink computed, with the partitions its tasks report:"
                            + " the pipeline makes it, so it cannot be in the API's package",
            API + ".pipeline.JobEngine",
                    "where a prepared run's tasks run (JobEngine.spark(session),"
                            + " JobEngine.driver(hadoop, cancelled)): the engine seam itself, one name for the API and the"
                            + " pipeline (a mirror type in the API repeated its factories)");

    @Test
    void publicSignaturesNameNoInternalType() throws Exception {
        Map<String, Set<String>> leaks = new TreeMap<>();
        for (Class<?> type : apiClasses()) {
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (Modifier.isPublic(constructor.getModifiers())) {
                    check(type.getSimpleName() + "(...)", signature(constructor), leaks);
                }
            }
            for (Method method : type.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers()) && !method.isSynthetic()) {
                    List<Type> types = signature(method);
                    types.add(method.getGenericReturnType());
                    check(type.getSimpleName() + "." + method.getName(), types, leaks);
                }
            }
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isPublic(field.getModifiers())) {
                    check(type.getSimpleName() + "." + field.getName(), List.of(field.getGenericType()), leaks);
                }
            }
            List<Type> supertypes = new ArrayList<>(List.of(type.getGenericInterfaces()));
            if (type.getGenericSuperclass() != null) {
                supertypes.add(type.getGenericSuperclass());
            }
            check(type.getSimpleName() + " (its supertypes)", supertypes, leaks);
        }
        leaks.keySet().removeAll(SHOWN.keySet());
        assertThat(leaks)
                .as("internal types in the API's public signatures (type: members)")
                .isEmpty();
    }

    /** The test sees a leak: a method returning a pipeline type is caught, one that does not is not. */
    @Test
    void theCheckSeesGenericArguments() {
        Map<String, Set<String>> leaks = new TreeMap<>();
        check(
                "x",
                List.of(
                        new ParameterizedType() {
                            @Override
                            public Type[] getActualTypeArguments() {
                                return new Type[] {dev.tensorbroadcast.job.source.JobSource.class};
                            }

                            @Override
                            public Type getRawType() {
                                return List.class;
                            }

                            @Override
                            public Type getOwnerType() {
                                return null;
                            }
                        },
                        String.class),
                leaks);
        assertThat(leaks).containsOnlyKeys(API + ".source.JobSource");
    }

    @Test
    void everyShownTypeIsStillShown() throws Exception {
        Map<String, Set<String>> leaks = new TreeMap<>();
        for (Class<?> type : apiClasses()) {
            for (Method method : type.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers())) {
                    List<Type> types = signature(method);
                    types.add(method.getGenericReturnType());
                    check(method.getName(), types, leaks);
                }
            }
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (Modifier.isPublic(constructor.getModifiers())) {
                    check(type.getSimpleName(), signature(constructor), leaks);
                }
            }
        }
        // an entry no signature needs any more is removed from the list
        assertThat(leaks.keySet()).containsAll(SHOWN.keySet());
    }

    private static List<Type> signature(Executable executable) {
        List<Type> types = new ArrayList<>(List.of(executable.getGenericParameterTypes()));
        types.addAll(List.of(executable.getGenericExceptionTypes()));
        return types;
    }

    private static void check(String member, List<Type> types, Map<String, Set<String>> leaks) {
        for (Type type : types) {
            for (Class<?> named : named(type, new ArrayList<>())) {
                String packageName = named.getPackageName();
                if (packageName.startsWith(API + ".")
                        && INTERNAL.contains(
                                packageName.substring(API.length() + 1).split("\\.")[0])) {
                    leaks.computeIfAbsent(named.getName().replace('$', '.'), key -> new TreeSet<>())
                            .add(member);
                }
            }
        }
    }

    /** Every class a type names: itself, its generic arguments, bounds and array components. */
    private static List<Class<?>> named(Type type, List<Class<?>> found) {
        if (type instanceof Class<?> plain) {
            Class<?> component = plain;
            while (component.isArray()) {
                component = component.getComponentType();
            }
            found.add(component);
        } else if (type instanceof ParameterizedType parameterized) {
            named(parameterized.getRawType(), found);
            for (Type argument : parameterized.getActualTypeArguments()) {
                named(argument, found);
            }
        } else if (type instanceof GenericArrayType array) {
            named(array.getGenericComponentType(), found);
        } else if (type instanceof WildcardType wildcard) {
            Stream.concat(Stream.of(wildcard.getUpperBounds()), Stream.of(wildcard.getLowerBounds()))
                    .forEach(bound -> named(bound, found));
        } else if (type instanceof TypeVariable<?> variable) {
            for (Type bound : variable.getBounds()) {
                if (!(bound instanceof ParameterizedType parameterized
                        && parameterized.getRawType() instanceof Class<?> raw
                        && raw.getPackageName().equals(API))) {
                    named(bound, found);
                }
            }
        }
        return found;
    }

    /** The public classes of the API package, nested ones (a public builder of a public class) included. */
    private static List<Class<?>> apiClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(TensorBroadcast.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .resolve(API.replace('.', '/'));
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(classes)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".class"))
                    .sorted()
                    .toList()) {
                String name = file.getFileName().toString().replaceFirst("\\.class$", "");
                Class<?> type = Class.forName(API + "." + name, false, PublicApiTest.class.getClassLoader());
                if (isPublicApi(type)) {
                    found.add(type);
                }
            }
        }
        assertThat(found)
                .extracting(Class::getSimpleName)
                .contains(
                        "TensorBroadcast",
                        "PreparedBroadcast",
                        "TensorReduce",
                        "PreparedReduce",
                        "ReduceResult",
                        "WriteSpec",
                        "Builder");
        return found;
    }

    private static boolean isPublicApi(Class<?> type) {
        for (Class<?> at = type; at != null; at = at.getEnclosingClass()) {
            if (!Modifier.isPublic(at.getModifiers()) || at.isAnonymousClass() || at.isSynthetic()) {
                return false;
            }
        }
        return true;
    }
}
