package io.observatory.mesh.config;

/** What the names of mesh servers, entry points and witnesses are made of: they become parts of tags and log lines. */
final class MeshNames {

    /** ASCII letters, digits, {@code .}, {@code _} and {@code -}; no {@code /}, which joins server and entry point. */
    static final String PATTERN = "[A-Za-z0-9._-]+";

    /** The expectation of a name that does not match {@link #PATTERN}. */
    static final String EXPECTED = "a name of ASCII letters, digits, '.', '_' and '-'";

    private MeshNames() {}
}
