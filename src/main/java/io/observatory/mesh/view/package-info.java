/**
 * The mesh as people and dashboards see it: its member of {@code /actuator/observatory}, its metrics, and the status
 * page's mesh panel (its data here, its script and style in {@code io/observatory/mesh/view/panel/}).
 */
@NullMarked
package io.observatory.mesh.view;

import org.jspecify.annotations.NullMarked;
