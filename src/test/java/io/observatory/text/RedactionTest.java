package io.observatory.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedactionTest {

    @Test
    void redactWhenUriHasPasswordThenUserKeptAndPasswordMasked() {
        assertThat(Redaction.redact(URI.create("http://user:s3cret@host/"))).isEqualTo("http://user:******@host/");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "https://u:p@example.com:8443/a?b=c#d | https://u:******@example.com:8443/a?b=c#d",
                "http://a@b:p@ss@host/                | http://a@b:******@host/",
                "http://user:s3cret@my_host/          | http://user:******@my_host/",
                "' http://user:s3cret@host:99999/'    | ' http://user:******@host:99999/'",
                "htp://user:s3cret@ho st/             | htp://user:******@ho st/",
                "http://user@host/                    | http://user@host/",
                "http://user:@host/                   | http://user:@host/",
                "http://host:8080/path@x              | http://host:8080/path@x",
                "http://host/?next=http://u:p@h/      | http://host/?next=http://u:p@h/",
                "not a url                            | not a url"
            })
    void redactWhenTextThenOnlyTheUserInfoPasswordMasked(String text, String redacted) {
        assertThat(Redaction.redact(text)).isEqualTo(redacted);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "observatory.outbounds[0].password, true",
        "observatory.outbounds[0].pasword, true",
        "observatory.outbounds[0].passwd, true",
        "observatory.outbounds[0].pw, true",
        "observatory.outbounds[0].pwd, true",
        "observatory.outbounds[0].upward, false",
        "observatory.probe.headers[Authorization], true",
        "observatory.probe.headers[X-Api-Key], true",
        "observatory.outbounds[0].username, false",
        "observatory.outbounds[0].address, false",
        "observatory.probe.trusted-certificates, false",
        "observatory.standard.probe-interval, false",
        "observatory.passive.ceiling, false",
        "observatory.passive.password, true",
        "observatory.api.auth.token, true",
        "observatory.api.auth.tokne-file, true",
        "observatory.api.auth.token-file, false",
        "observatory.api.auth.token-env, false",
        "observatory.api.auth.require-for-reads, false",
        "observatory.api.auth.xray-reads-open, false",
        "observatory.mesh.witness.token, true",
        "observatory.mesh.witness.token-file, false",
        "observatory.mesh.witness.token-over-plaintext, false",
        "observatory.mesh.hub.witnesses[0].token-env, false",
        "observatory.notifications.email.password, true",
        "observatory.notifications.email.password-file, false",
        "observatory.notifications.webhooks[0].secret, true",
        "observatory.notifications.webhooks[0].secret-file, false",
        "observatory.notifications.webhooks[0].token, true",
        "observatory.notifications.webhooks[3].url, true",
        "observatory.notifications.alertmanager.url, false"
    })
    void isSecretNameWhenPropertyThenPasswordsTokensAndKeysAreSecret(String name, boolean secret) {
        assertThat(Redaction.isSecretName(name)).isEqualTo(secret);
    }
}
