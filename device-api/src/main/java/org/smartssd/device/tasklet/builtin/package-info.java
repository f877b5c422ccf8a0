/**
 * Tasklets built into every device, installable with an empty jar: a record counter, a filter over
 * a fixed field, a grouped sum, the Smart SSD's access probe, and a top-T search by Hamming
 * distance. Each also decodes its own results for the host.
 */
package org.smartssd.device.tasklet.builtin;
