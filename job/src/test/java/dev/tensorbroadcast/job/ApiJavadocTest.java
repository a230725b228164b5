package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public type and member of the Java API ({@code dev.tensorbroadcast.job}, the {@code Manifest} a run
 * returns, the {@code Progress} it tells and the {@code DiscardedBroadcast} a discard returns) has a Javadoc comment,
 * read from the sources with the JDK's compiler tree API: a missing comment fails the build here, and
 * {@code mvn verify}'s Javadoc (doclint on) fails on a broken one. A member that overrides another inherits the
 * other's comment.
 */
class ApiJavadocTest {
    private static final Path API = Path.of("src", "main", "java", "dev", "tensorbroadcast", "job");

    @Test
    void everyPublicTypeAndMemberOfTheApiHasAComment() throws IOException {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> files = Files.list(API)) {
            files.filter(path -> path.toString().endsWith(".java")).sorted().forEach(sources::add);
        }
        // the types below the pipeline that the API shows (PublicApiTest.SHOWN)
        sources.add(API.resolve("manifest").resolve("Manifest.java"));
        sources.add(API.resolve("base").resolve("Progress.java"));
        sources.add(API.resolve("base").resolve("DiscardedBroadcast.java"));
        assertThat(sources).hasSizeGreaterThan(15);
        assertThat(undocumented(sources))
                .as("public types and members of the API without a Javadoc comment")
                .isEmpty();
    }

    /** The check sees what it is for: each kind of public member without a comment, and nothing private. */
    @Test
    void anUndocumentedPublicMemberIsNamed(@TempDir Path dir) throws IOException {
        Path source = dir.resolve("Sample.java");
        Files.writeString(
                source,
                String.join(
                        "\n",
                        "package sample;",
                        "/** Documented. */",
                        "public record Sample(int size) {",
                        "    public Sample {}",
                        "    public static final int LIMIT = 1;",
                        "    /** Documented. */",
                        "    public static final int OTHER = 2;",
                        "    private static final int HIDDEN = 3;",
                        "    public int twice() { return 2 * size; }",
                        "    @Override",
                        "    public String toString() { return \"sample\"; }",
                        "    int packagePrivate() { return 0; }",
                        "    public interface Listener {",
                        "        /** Documented. */",
                        "        void heard();",
                        "        void missed();",
                        "    }",
                        "    /** Documented. */",
                        "    public enum Kind { ONE, /** Documented. */ TWO }",
                        "}",
                        "class Hidden {",
                        "    public void notApi() {}",
                        "}",
                        ""));
        assertThat(undocumented(List.of(source)))
                .containsExactly(
                        "Sample.Sample(...)",
                        "Sample.LIMIT",
                        "Sample.twice(...)",
                        "Sample.Listener",
                        "Sample.Listener.missed(...)",
                        "Sample.Kind.ONE");
    }

    private static List<String> undocumented(List<Path> sources) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager files =
                compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8)) {
            // parsing only: the comments are in the trees, and nothing needs to resolve
            JavacTask task = (JavacTask) compiler.getTask(
                    null,
                    files,
                    diagnostic -> {},
                    List.of("-proc:none"),
                    null,
                    files.getJavaFileObjectsFromPaths(sources));
            DocTrees trees = DocTrees.instance(task);
            List<String> missing = new ArrayList<>();
            for (CompilationUnitTree unit : task.parse()) {
                for (Tree declaration : unit.getTypeDecls()) {
                    if (declaration instanceof ClassTree type
                            && type.getModifiers().getFlags().contains(Modifier.PUBLIC)) {
                        check(trees, new TreePath(new TreePath(unit), type), type, "", missing);
                    }
                }
            }
            return missing;
        }
    }

    private static void check(DocTrees trees, TreePath path, ClassTree type, String outer, List<String> missing) {
        String name = outer + type.getSimpleName();
        require(trees, path, name, missing);
        boolean inInterface = type.getKind() == Tree.Kind.INTERFACE || type.getKind() == Tree.Kind.ANNOTATION_TYPE;
        boolean inEnum = type.getKind() == Tree.Kind.ENUM;
        for (Tree member : type.getMembers()) {
            TreePath at = new TreePath(path, member);
            if (member instanceof ClassTree nested) {
                if (visible(nested.getModifiers(), inInterface)) {
                    check(trees, at, nested, name + ".", missing);
                }
            } else if (member instanceof MethodTree method) {
                boolean constructor = method.getName().contentEquals("<init>");
                if (visible(method.getModifiers(), inInterface) && !overrides(method)) {
                    require(
                            trees,
                            at,
                            name + "." + (constructor ? type.getSimpleName() : method.getName()) + "(...)",
                            missing);
                }
            } else if (member instanceof VariableTree field) {
                boolean constant = inEnum && field.getModifiers().getFlags().isEmpty();
                if (constant || visible(field.getModifiers(), inInterface)) {
                    require(trees, at, name + "." + field.getName(), missing);
                }
            }
        }
    }

    private static boolean visible(ModifiersTree modifiers, boolean inInterface) {
        return modifiers.getFlags().contains(Modifier.PUBLIC)
                || modifiers.getFlags().contains(Modifier.PROTECTED)
                || inInterface && !modifiers.getFlags().contains(Modifier.PRIVATE);
    }

    private static boolean overrides(MethodTree method) {
        return method.getModifiers().getAnnotations().stream()
                .anyMatch(
                        annotation -> annotation.getAnnotationType().toString().equals("Override"));
    }

    private static void require(DocTrees trees, TreePath path, String name, List<String> missing) {
        if (trees.getDocCommentTree(path) == null) {
            missing.add(name);
        }
    }
}
