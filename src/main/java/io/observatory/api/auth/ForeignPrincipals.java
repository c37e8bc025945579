package io.observatory.api.auth;

/**
 * Client certificate subjects that belong to callers of another service, and so are no credential of the API: a mesh
 * witness's certificate lets it report to its hub, never write to the v1 API (its passive reports would take servers
 * out of rotation without the mesh's quorum). Register one as a bean; every one is asked.
 */
@FunctionalInterface
public interface ForeignPrincipals {

    /** Whether {@code subjectCommonName}, a verified client certificate's subject CN, is one of them. */
    boolean contains(String subjectCommonName);
}
