/**
 * The incidents' database: the schema (Flyway migrations, one script for SQLite and PostgreSQL), the writes on one
 * thread behind a bounded queue, the queries of the API and the page, retention.
 */
@NullMarked
package io.observatory.incident.store;

import org.jspecify.annotations.NullMarked;
