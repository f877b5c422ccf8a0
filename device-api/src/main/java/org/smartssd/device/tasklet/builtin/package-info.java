/**
 * Tasklets built into every device, installable with an empty jar: a record counter, a filter over
 * a fixed field, and a grouped sum. Each also decodes its own results for the host.
 */
package org.smartssd.device.tasklet.builtin;
