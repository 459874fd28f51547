"""The table's widgets: each draws one part of a seat's view and knows no game rules."""
