package io.observatory;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The house's boundaries, checked on the compiled main classes: the probe-to-verdict core imports no capability; a
 * capability reaches another only through the core's ports; every package of ours says its types are null-marked.
 */
class ArchitectureTest {

    /** The capabilities, each one package tree: everything beyond the core. */
    private static final List<String> CAPABILITIES =
            List.of("mesh", "state", "page", "demo", "proxycore", "incident", "xds", "haproxy");

    /** Packages protoc generates from {@code proto/}, which carry no package-info of ours. */
    private static final Set<String> GENERATED = Set.of(
            "io.observatory.api.v1",
            "io.observatory.api.xray",
            "io.observatory.mesh.api.v1",
            "io.observatory.mesh.hub.state.v1",
            "io.observatory.mesh.witness.exposition",
            "io.observatory.state.v1");

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.observatory");

    private static String[] capabilityTrees() {
        return CAPABILITIES.stream()
                .map(name -> "io.observatory." + name + "..")
                .toArray(String[]::new);
    }

    @Test
    void coreWhenCompiledThenItImportsNoCapability() {
        noClasses()
                .that()
                .resideInAPackage("io.observatory..")
                .and()
                .resideOutsideOfPackages(capabilityTrees())
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(capabilityTrees())
                .because("the core reaches a capability only through its ports (ConfigSection, SnapshotPart,"
                        + " Checkpoint, PartView, Reconfigurable, ForeignPrincipals, XrayOutbounds), which the"
                        + " capability implements")
                .check(MAIN);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mesh", "state", "page", "demo", "proxycore", "incident", "xds", "haproxy"})
    void capabilityWhenCompiledThenItImportsNoOtherCapability(String capability) {
        String[] others = CAPABILITIES.stream()
                .filter(name -> !name.equals(capability))
                .map(name -> "io.observatory." + name + "..")
                .toArray(String[]::new);

        noClasses()
                .that()
                .resideInAPackage("io.observatory." + capability + "..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(others)
                .because("capabilities meet only through the core")
                .check(MAIN);
    }

    @Test
    void packagesWhenCompiledThenEveryOneOfOursIsNullMarked() {
        Set<String> unmarked = new TreeSet<>();
        collectUnmarked(MAIN.getPackage("io.observatory"), unmarked);

        assertThat(unmarked)
                .as("packages without @NullMarked in their package-info.java")
                .isEmpty();
    }

    private static void collectUnmarked(JavaPackage javaPackage, Set<String> unmarked) {
        if (!GENERATED.contains(javaPackage.getName())
                && !javaPackage.getClasses().isEmpty()
                && !javaPackage.isAnnotatedWith(NullMarked.class)) {
            unmarked.add(javaPackage.getName());
        }
        javaPackage.getSubpackages().forEach(sub -> collectUnmarked(sub, unmarked));
    }
}
