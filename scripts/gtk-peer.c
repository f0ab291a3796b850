/* The GTK 3 reference for tooltip-bench (`make bench-gtk`): a window titled "peer-gtk",
 * 200×80, holding one button with a plain tooltip (GTK 3.24 shows it after its fixed
 * 500 ms hover timeout). The bench hovers the window's centre, (100, 40). */
#include <gtk/gtk.h>

int main(int argc, char **argv)
{
    gtk_init(&argc, &argv);
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title(GTK_WINDOW(window), "peer-gtk");
    gtk_window_set_default_size(GTK_WINDOW(window), 200, 80);
    gtk_container_set_border_width(GTK_CONTAINER(window), 10);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

    GtkWidget *button = gtk_button_new_with_label("Hover me");
    gtk_widget_set_tooltip_text(button, "A GTK 3 tooltip");
    gtk_container_add(GTK_CONTAINER(window), button);

    gtk_widget_show_all(window);
    gtk_main();
    return 0;
}
