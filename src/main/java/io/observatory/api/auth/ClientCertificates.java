package io.observatory.api.auth;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.jspecify.annotations.Nullable;

/** What a call's TLS session says of its client: whether it presented a certificate, and the certificate's subject. */
public final class ClientCertificates {

    private ClientCertificates() {}

    /** Whether the TLS session has a client certificate; the handshake verified it against the trust store. */
    public static boolean present(@Nullable SSLSession session) {
        if (session == null) {
            return false;
        }
        try {
            Certificate[] certificates = session.getPeerCertificates();
            return certificates != null && certificates.length > 0;
        } catch (SSLPeerUnverifiedException e) {
            return false;
        }
    }

    /**
     * The subject CN of the client certificate of {@code session}: exactly one CN, else {@code null}. A subject with
     * several CNs ({@code CN=attacker,CN=w1,O=corp}, or {@code CN=attacker+CN=w1} in one RDN) names nobody: which one
     * counts would be a guess an issuer's naming could exploit.
     */
    public static @Nullable String subjectCommonName(@Nullable SSLSession session) {
        List<String> names = subjectCommonNames(session);
        return names.size() == 1 ? names.get(0) : null;
    }

    /**
     * Every subject CN of the client certificate of {@code session}, in the subject's order and including each value
     * of a multi-valued RDN; empty without a verified certificate or with a subject that cannot be parsed.
     */
    public static List<String> subjectCommonNames(@Nullable SSLSession session) {
        if (session == null) {
            return List.of();
        }
        try {
            Certificate[] chain = session.getPeerCertificates();
            if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
                return List.of();
            }
            List<String> names = new ArrayList<>(1);
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                Attribute commonName = rdn.toAttributes().get("CN");
                if (commonName == null) {
                    continue;
                }
                for (NamingEnumeration<?> values = commonName.getAll(); values.hasMore(); ) {
                    names.add(String.valueOf(values.next()));
                }
            }
            return names;
        } catch (SSLPeerUnverifiedException | NamingException e) {
            return List.of();
        }
    }
}
