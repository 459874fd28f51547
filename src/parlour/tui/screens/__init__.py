"""The terminal table's screens: menu, table, options, rules, deal summary, statistics, dialogs."""
