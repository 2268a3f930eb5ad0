package io.sluice.bench;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/** Reads the charts' PNGs back for the chart tests. */
public final class Pngs {

    private Pngs() {}

    /** The image in {@code png}, failing the test unless it is a readable PNG. */
    public static BufferedImage read(Path png) throws Exception {
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, png + " is not a readable PNG");
        return image;
    }

    /** How many pixels have exactly this RGB colour. */
    public static int pixels(BufferedImage image, int rgb) {
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                count += (image.getRGB(x, y) & 0xffffff) == rgb ? 1 : 0;
            }
        }
        return count;
    }
}
