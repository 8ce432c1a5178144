"""The Streamlit dashboard: the entry file, its pages and what they share."""
