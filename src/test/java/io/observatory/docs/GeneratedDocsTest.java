package io.observatory.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The generated parts of the docs are current: the configuration reference in {@code docs/configuration.md} (from the
 * configuration metadata and the settings records' Javadoc) and the Helm values table in {@code docs/deploy.md} (from
 * {@code values.yaml}), each between its {@code BEGIN GENERATED} and {@code END GENERATED} markers. Run with
 * {@code -Ddocs.update=true} to rewrite them: {@code ./mvnw -Ddocs.update=true -Dtest=GeneratedDocsTest test}.
 */
class GeneratedDocsTest {

    private static final boolean UPDATE = Boolean.getBoolean("docs.update");
    private static final String HOW =
            "run ./mvnw -Ddocs.update=true -Dtest=GeneratedDocsTest test and commit the result";

    @Test
    void configurationReferenceWhenBuiltThenEveryPropertyHasADescriptionAndADefaultAndTheDocIsCurrent()
            throws IOException {
        ConfigurationReference reference = new ConfigurationReference(Path.of("src/main/java"));
        String tables = reference.build(Path.of("target/classes/META-INF/spring-configuration-metadata.json"));

        assertThat(reference.problems())
                .as("properties the reference cannot document")
                .isEmpty();
        assertCurrent(Path.of("docs/configuration.md"), "configuration reference", tables);
    }

    @Test
    void helmValuesTableWhenBuiltThenTheDocIsCurrent() throws IOException {
        String table = new HelmValuesReference().build(Path.of("helm/observatory/values.yaml"));

        assertCurrent(Path.of("docs/deploy.md"), "Helm values", table);
    }

    /** The block between the markers of {@code name} in {@code file} equals {@code generated}, or is made to. */
    private static void assertCurrent(Path file, String name, String generated) throws IOException {
        String begin = "<!-- BEGIN GENERATED: " + name + " (" + HOW + ") -->\n";
        String end = "<!-- END GENERATED: " + name + " -->";
        String content = Files.readString(file);
        int from = content.indexOf(begin);
        int to = content.indexOf(end);
        assertThat(from).as(file + " has the marker " + begin.strip()).isNotNegative();
        assertThat(to).as(file + " has the marker " + end).isGreaterThan(from);
        String current = content.substring(from + begin.length(), to);
        if (UPDATE && !current.equals(generated)) {
            Files.writeString(file, content.substring(0, from + begin.length()) + generated + content.substring(to));
            return;
        }
        assertThat(current).as(file + " is stale: " + HOW).isEqualTo(generated);
    }
}
