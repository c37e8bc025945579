package io.observatory.meshlab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The network lab that {@code .ci/mesh-lab} builds and passes through Maven's {@code mesh-lab} profile: one network
 * namespace per server with its address and its microsocks entry point, all on one bridge that the root namespace
 * reaches at {@code hubAddress}.
 *
 * @param hubAddress    the root namespace's address on the lab's link (system property
 *                      {@code mesh-lab.hub-address}), where the hub and the probe target listen
 * @param namespaces    the servers' namespaces, s1 first ({@code mesh-lab.namespaces}, comma-separated)
 * @param addresses     each server's address in its namespace, in the same order ({@code mesh-lab.addresses})
 * @param entryPort     the TCP port of every server's microsocks on its address ({@code mesh-lab.entry-port})
 * @param entryUsername the user every microsocks accepts ({@code mesh-lab.entry-username})
 * @param entryPassword that user's password ({@code mesh-lab.entry-password})
 * @param jar           the service jar the witnesses run ({@code mesh-lab.jar}, set by the profile)
 * @param workDir       where token files and the witnesses' logs go ({@code mesh-lab.work-dir}, set by the profile)
 */
record MeshLab(
        String hubAddress,
        List<String> namespaces,
        List<String> addresses,
        int entryPort,
        String entryUsername,
        String entryPassword,
        Path jar,
        Path workDir) {

    MeshLab {
        namespaces = List.copyOf(namespaces);
        addresses = List.copyOf(addresses);
        if (namespaces.size() != addresses.size()) {
            throw new IllegalStateException(
                    "mesh-lab.namespaces " + namespaces + " and mesh-lab.addresses " + addresses + " differ in length");
        }
    }

    /** Reads the lab from the system properties; fails with a pointer to {@code .ci/mesh-lab} if one is blank. */
    static MeshLab fromSystemProperties() {
        Path jar = Path.of(required("mesh-lab.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no service jar at " + jar + ": the mesh-lab profile runs after package");
        }
        return new MeshLab(
                required("mesh-lab.hub-address"),
                List.of(required("mesh-lab.namespaces").split(",")),
                List.of(required("mesh-lab.addresses").split(",")),
                Integer.parseInt(required("mesh-lab.entry-port")),
                required("mesh-lab.entry-username"),
                required("mesh-lab.entry-password"),
                jar,
                Path.of(required("mesh-lab.work-dir")));
    }

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set: the mesh lab runs in network"
                    + " namespaces that .ci/mesh-lab builds (as root) before it runs ./mvnw verify -Pmesh-lab;"
                    + " run it with `sudo bash .ci/mesh-lab`");
        }
        return value;
    }
}
