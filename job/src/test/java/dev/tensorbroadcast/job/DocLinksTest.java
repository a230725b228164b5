package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the README and the guide ({@code docs/*.md}) resolves: the file it names exists, and the
 * anchor it names is a heading of that page, spelled as GitHub spells heading anchors. Links to other sites are not
 * fetched.
 */
class DocLinksTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.*?)#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");

    @Test
    void everyRelativeLinkAndAnchorOfTheGuideResolves() throws IOException {
        List<Path> pages = guidePages(ROOT);
        assertThat(pages)
                .as("README.md and docs/*.md")
                .contains(ROOT.resolve("README.md"))
                .hasSizeGreaterThan(10);
        assertThat(problems(pages)).as("links that do not resolve").isEmpty();
    }

    /** The check finds what it is for: a missing file, a missing anchor, a link to a heading inside a code block. */
    @Test
    void aBrokenLinkOrAnchorIsNamed(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(
                dir.resolve("README.md"),
                String.join(
                        "\n",
                        "# Title",
                        "",
                        "[ok](docs/page.md#the-commit-on-s3) [ok](#title) [gone](docs/gone.md) [no](docs/page.md#nope)",
                        "[fenced](docs/page.md#not-a-heading) [site](https://example.com/x.md#y) `[code](docs/none.md)`",
                        "```text",
                        "[inside a block](docs/none.md)",
                        "```",
                        ""));
        Files.writeString(
                dir.resolve("docs/page.md"),
                String.join(
                        "\n",
                        "# Page",
                        "",
                        "## The commit on S3",
                        "",
                        "```sh",
                        "# not a heading",
                        "```",
                        "[back](../README.md#title) [twice](#page-1)",
                        "",
                        "## Page",
                        ""));
        assertThat(problems(guidePages(dir)))
                .containsExactly(
                        "README.md:3: docs/gone.md: no such file",
                        "README.md:3: docs/page.md#nope: no such heading",
                        "README.md:4: docs/page.md#not-a-heading: no such heading");
    }

    @Test
    void anchorsAreSpelledAsGitHubSpellsThem() {
        assertThat(anchor("Zarr v3 output (`--format zarr`)")).isEqualTo("zarr-v3-output---format-zarr");
        assertThat(anchor("The backward pass: `reduce`")).isEqualTo("the-backward-pass-reduce");
        assertThat(anchor("Hugging Face `datasets` against `datasets.map`"))
                .isEqualTo("hugging-face-datasets-against-datasetsmap");
        assertThat(anchor("BYTE_STREAM_SPLIT (`--encoding byte-stream-split`, Parquet floats)"))
                .isEqualTo("byte_stream_split---encoding-byte-stream-split-parquet-floats");
    }

    private static List<Path> guidePages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(path -> path.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .forEach(pages::add);
        }
        return pages;
    }

    private static List<String> problems(List<Path> pages) {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Path page : pages) {
            List<String> lines = lines(page);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
                while (link.find()) {
                    String target = link.group(1);
                    if (target.matches("^[a-z]+:.*")) {
                        continue;
                    }
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    Path linked = file.isEmpty()
                            ? page
                            : page.getParent().resolve(file).normalize();
                    String where = page.getFileName() + ":" + (i + 1) + ": " + target;
                    if (!Files.exists(linked)) {
                        problems.add(where + ": no such file");
                    } else if (hash >= 0
                            && linked.toString().endsWith(".md")
                            && !anchors.computeIfAbsent(linked, DocLinksTest::headingAnchors)
                                    .contains(target.substring(hash + 1))) {
                        problems.add(where + ": no such heading");
                    }
                }
            }
        }
        return problems;
    }

    /** The anchors of a page's headings (outside code blocks), a repeated one numbered as GitHub numbers it. */
    private static Set<String> headingAnchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines(page)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (!fenced && heading.matches()) {
                String anchor = anchor(heading.group(1));
                int count = seen.merge(anchor, 1, Integer::sum);
                anchors.add(count == 1 ? anchor : anchor + "-" + (count - 1));
            }
        }
        return anchors;
    }

    private static String anchor(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    private static List<String> lines(Path page) {
        try {
            return Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
