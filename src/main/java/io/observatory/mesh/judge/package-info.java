/**
 * Pure multi-vantage judging (the mesh): from the fleet, the witnesses' latest self-reports and probe streaks, decide
 * each server's status, each entry point's marks, each witness's reliability and what each route serves.
 */
@NullMarked
package io.observatory.mesh.judge;

import org.jspecify.annotations.NullMarked;
