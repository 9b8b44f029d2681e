"""Words: every sentence the bot says (`strings`), gettext catalogs and their compilation
(`catalogs`, `locale/`), phrases in the reader's language (`i18n`), slash commands translated
(`translator`), and positions in words for alt texts and text boards (`descriptions`)."""
