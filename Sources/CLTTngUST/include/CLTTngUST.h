void st_placeholder(void);
