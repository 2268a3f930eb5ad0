package io.sluice.server.load;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A white PNG with a title, on which {@link ChartPanel}s are drawn (Java2D, headless). The server
 * module draws its own charts so a run needs nothing but the JDK.
 */
final class ChartCanvas {

    /** One colour per lane (A, B, C, C-unbounded) and per series elsewhere, in this order. */
    static final Color[] SERIES_COLOURS = {new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4),
        new Color(0x2C, 0xA0, 0x2C), new Color(0x7F, 0x7F, 0x7F)};
    static final Color INK = new Color(0x33, 0x33, 0x33);

    private final BufferedImage image;
    private final Graphics2D graphics;

    ChartCanvas(int width, int height, String title) {
        System.setProperty("java.awt.headless", System.getProperty("java.awt.headless", "true"));
        image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        graphics = image.createGraphics();
        graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        graphics.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        graphics.setColor(Color.WHITE);
        graphics.fillRect(0, 0, width, height);
        graphics.setColor(INK);
        graphics.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        graphics.drawString(title, 16, 24);
        graphics.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        graphics.setStroke(new BasicStroke(1f));
    }

    Graphics2D graphics() {
        return graphics;
    }

    int width() {
        return image.getWidth();
    }

    int height() {
        return image.getHeight();
    }

    /** Writes the PNG, creating the directory if needed. */
    void save(Path file) throws IOException {
        graphics.dispose();
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer in this JDK for " + file);
        }
    }
}
