/**
 * Spring Boot auto-configuration for sluice-spring: {@code sluice.*} properties
 * ({@link io.sluice.spring.boot.SluiceProperties}) for the chunk pool, the file executor and the
 * default read, write and upload options; {@link io.sluice.spring.boot.SluiceTransfers} and
 * {@link io.sluice.spring.boot.SluiceFileParts}, the entry points that use them; Micrometer meters
 * and an {@code Observation} per transfer when Micrometer is present.
 */
package io.sluice.spring.boot;
