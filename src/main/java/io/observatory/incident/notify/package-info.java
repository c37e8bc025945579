/**
 * Telling people of incidents ({@code observatory.notifications}): e-mail over SMTP, webhooks (JSON signed with
 * HMAC-SHA256, Slack, Discord, Telegram) and Alertmanager. Driven by the incidents the database recorded; each channel
 * has its own bounded queue, thread and retries, so that no channel slows the writer, the store or another channel.
 */
@NullMarked
package io.observatory.incident.notify;

import org.jspecify.annotations.NullMarked;
